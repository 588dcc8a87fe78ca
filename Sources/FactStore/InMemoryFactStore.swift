import FactClient
import Foundation
import LockSupport

extension FactStore {
  /// A store in memory, with the SQLite store's rules: one entry per number, kind and text,
  /// newest first, at most `limit` entries. For tests and previews; `failure`, when set,
  /// is thrown by every operation, as a broken store would.
  package static func inMemory(
    limit: Int = FactStore.historyLimit, failure: FactStoreError? = nil
  ) -> Self {
    let memory = Memory(limit: limit)
    @Sendable func check() throws { if let failure { throw failure } }
    return Self(
      record: { facts, seen in
        try check()
        memory.record(facts, seen: seen)
      },
      history: { query in
        try check()
        return memory.history(query)
      },
      seenFacts: { numbers, kind in
        try check()
        return memory.seenFacts(numbers, kind)
      },
      clearHistory: {
        try check()
        return memory.clear()
      },
      loadSession: {
        try check()
        return memory.session
      },
      saveSession: { session in
        try check()
        memory.session = session
      })
  }
}

/// The in-memory store's state: entries oldest first.
private final class Memory: Sendable {
  private struct State {
    var entries: [NumberFact] = []
    var session: FactStore.Session?
  }

  private let limit: Int
  private let state = Locked(State())

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  func record(_ facts: [NumberFact], seen: Date) {
    state.withLock { state in
      for var fact in facts {
        // A stored fact came from the server; shown again, it is seen again.
        if fact.source == .stored { fact.source = .live }
        fact.seen = seen
        fact.offlineReason = nil
        state.entries.removeAll {
          $0.number == fact.number && $0.kind == fact.kind && $0.text == fact.text
        }
        state.entries.append(fact)
      }
      if state.entries.count > limit { state.entries.removeFirst(state.entries.count - limit) }
    }
  }

  func history(_ query: FactStore.HistoryQuery) -> [NumberFact] {
    state.withLock { state in
      Array(state.entries.reversed().lazy.filter { query.matches($0.text) }.prefix(query.limit))
    }
  }

  func seenFacts(_ numbers: [Int], _ kind: FactKind) -> [Int: NumberFact] {
    let wanted = Set(numbers)
    return state.withLock { state in
      var found: [Int: NumberFact] = [:]
      // Oldest first, so the newest of each number is written last.
      for var fact in state.entries
      where fact.kind == kind && fact.source == .live && wanted.contains(fact.number) {
        fact.source = .stored
        found[fact.number] = fact
      }
      return found
    }
  }

  func clear() -> Int {
    state.withLock { state in
      defer { state.entries = [] }
      return state.entries.count
    }
  }

  var session: FactStore.Session? {
    get { state.withLock { $0.session } }
    set { state.withLock { $0.session = newValue } }
  }
}
