import Foundation
import LockSupport
import NumberFactCore
import TaskProvidingTesting

// Repeated on purpose (docs/architecture.md): every wait spells out its timeout, call-site and
// isolation parameters.

/// A store the test drives, as a slow or failing disk would behave: each write is a call the
/// test takes with ``nextWrite(timeout:fileID:filePath:line:column:isolation:)`` and ends
/// when it chooses. Reads answer at once from what the test put in ``stored`` and
/// ``session``.
package final class ControlledFactStore: Sendable {
  /// One write: the facts and the time they were seen. Answer it to let it complete, or fail
  /// it with a ``FactStoreError``.
  package typealias Write = ControlledFunction<Record, Void>.Call

  /// What one write records.
  package struct Record: Sendable, Hashable, CustomStringConvertible {
    /// The facts written.
    package var facts: [NumberFact]
    /// When they were seen.
    package var seen: Date
    /// Where the person was, saved in the same write: set for the write of a fact shown
    /// (``FactStore/recordShown``), `nil` for a plain ``FactStore/record``.
    package var session: FactStore.Session?

    /// For example `42 trivia`.
    package var description: String {
      facts.map { "\($0.number) \($0.kind)" }.joined(separator: ", ")
    }
  }

  /// The writes of facts.
  package let writes: ControlledFunction<Record, Void>
  private let saved = Locked<[FactStore.Session]>([])
  private let reads: FactStore

  /// The sessions saved so far, oldest first: a session saved alone completes at once, and
  /// one saved with a fact shown once that write has been answered.
  package var savedSessions: [FactStore.Session] { saved.withLock { $0 } }

  /// A store whose reads give `stored` (newest first) and `session`, and whose writes wait
  /// for the test.
  package init(stored: [NumberFact] = [], session: FactStore.Session? = nil) {
    writes = ControlledFunction("store write", answerTimeout: AppFailureBound.standard)
    let stored = stored
    reads = FactStore(
      record: { _, _ in },
      history: { query in Array(stored.filter { query.matches($0.text) }.prefix(query.limit)) },
      seenFacts: { numbers, kind in
        var found: [Int: NumberFact] = [:]
        for fact in stored.reversed()
        where fact.kind == kind && fact.source == .live && numbers.contains(fact.number) {
          var seen = fact
          seen.source = .stored
          found[fact.number] = seen
        }
        return found
      },
      clearHistory: { stored.count },
      loadSession: { session },
      saveSession: { _ in })
  }

  /// The store to give the feature.
  package var store: FactStore {
    let record = writes.function
    var store = reads
    store.record = { facts, seen in try await record(Record(facts: facts, seen: seen)) }
    let saved = saved
    store.saveSession = { session in saved.withLock { $0.append(session) } }
    store.recordShown = { facts, seen, session in
      try await record(Record(facts: facts, seen: seen, session: session))
      saved.withLock { $0.append(session) }
    }
    return store
  }

  /// Returns the next write, in call order, waiting for it if none has been made yet.
  ///
  /// - `timeout`: Bounds a failure only.
  package func nextWrite(
    timeout: Duration = AppFailureBound.standard,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Write {
    try await writes.nextCall(
      timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
