import FactClient
import Foundation

/// What the app remembers across runs: every fact shown, and where the person left off.
///
/// A witness struct, like ``NumberFactClient``: `inMemory()` for tests and the SQLite store
/// in FactStoreSQLite for the app. No store at all (`--no-store`) is `nil` wherever a store
/// is taken, never a store that ignores what it is given. Every operation may
/// throw ``FactStoreError``; a caller shows the message once and goes on without the store.
package struct FactStore: Sendable {
  /// Records facts that were shown, seen at the given time. A fact already stored (the same
  /// number, kind and text) moves to the top with the new time instead of appearing twice;
  /// a ``FactSource/stored`` fact shown again is one.
  package var record: @Sendable (_ facts: [NumberFact], _ seen: Date) async throws -> Void

  /// Records facts just shown, seen at the given time, and where the person is now, in one
  /// write: a crash keeps both or neither, and the disk is asked to write once per fact
  /// shown, not twice. What the app does for each fact it shows.
  package var recordShown:
    @Sendable (_ facts: [NumberFact], _ seen: Date, _ session: Session) async throws -> Void

  /// The stored facts, newest first.
  package var history: @Sendable (_ query: HistoryQuery) async throws -> [NumberFact]

  /// Hands each stored fact to `body` as it is read, newest first, so a caller that prints
  /// them never holds the whole store: what `numberfact history` uses. `body` may run on
  /// any thread; an error it throws ends the walk and is rethrown.
  package var eachInHistory:
    @Sendable (
      _ query: HistoryQuery, _ body: @escaping @Sendable (NumberFact) throws -> Void
    ) async throws -> Void

  /// Hands the text of each stored fact to `body` as it is read, sanitized, newest first:
  /// what `numberfact history` prints. It reads no other column and makes no
  /// ``NumberFact``, so it is the cheapest walk of the store. `body` may run on any thread;
  /// an error it throws ends the walk and is rethrown.
  package var eachTextInHistory:
    @Sendable (
      _ query: HistoryQuery, _ body: @escaping @Sendable (String) throws -> Void
    ) async throws -> Void

  /// For each of `numbers` seen from the fact server as a fact of `kind`, the newest such
  /// fact; its source is ``FactSource/stored`` and its `seen` says when. Numbers never seen
  /// are absent. Runs on the caller's actor, so a read that needs no wait (the SQLite store's,
  /// once open) needs no thread switch either.
  package var seenFacts:
    nonisolated(nonsending) @Sendable (_ numbers: [Int], _ kind: FactKind) async throws
      -> [Int: NumberFact]

  /// Forgets every stored fact; returns how many there were.
  package var clearHistory: @Sendable () async throws -> Int

  /// Where the person left off, if it was saved.
  package var loadSession: @Sendable () async throws -> Session?

  /// Saves where the person is now.
  package var saveSession: @Sendable (_ session: Session) async throws -> Void

  /// Creates a store from its operations. Without `eachInHistory`, the walk reads
  /// `history` whole and hands its facts over one by one; without `eachTextInHistory`, it
  /// hands over the text of each fact of `eachInHistory`; without `recordShown`, it is
  /// `record` followed by `saveSession`.
  package init(
    record: @escaping @Sendable (_ facts: [NumberFact], _ seen: Date) async throws -> Void,
    history: @escaping @Sendable (_ query: HistoryQuery) async throws -> [NumberFact],
    seenFacts:
      nonisolated(nonsending) @escaping @Sendable (_ numbers: [Int], _ kind: FactKind) async throws
      -> [Int: NumberFact],
    clearHistory: @escaping @Sendable () async throws -> Int,
    loadSession: @escaping @Sendable () async throws -> Session?,
    saveSession: @escaping @Sendable (_ session: Session) async throws -> Void,
    eachInHistory:
      (
        @Sendable (
          _ query: HistoryQuery, _ body: @escaping @Sendable (NumberFact) throws -> Void
        ) async throws -> Void
      )? = nil,
    eachTextInHistory:
      (
        @Sendable (
          _ query: HistoryQuery, _ body: @escaping @Sendable (String) throws -> Void
        ) async throws -> Void
      )? = nil,
    recordShown:
      (@Sendable (_ facts: [NumberFact], _ seen: Date, _ session: Session) async throws -> Void)? =
      nil
  ) {
    self.record = record
    self.recordShown =
      recordShown ?? { facts, seen, session in
        try await record(facts, seen)
        try await saveSession(session)
      }
    self.history = history
    let eachInHistory =
      eachInHistory ?? { query, body in
        for fact in try await history(query) { try body(fact) }
      }
    self.eachInHistory = eachInHistory
    self.eachTextInHistory =
      eachTextInHistory ?? { query, body in
        try await eachInHistory(query) { try body($0.text) }
      }
    self.seenFacts = seenFacts
    self.clearHistory = clearHistory
    self.loadSession = loadSession
    self.saveSession = saveSession
  }

  /// The most facts a store keeps; the oldest seen go first.
  package static let historyLimit = 100_000

  /// The newest fact about `number` of `kind` seen from the fact server, if any.
  nonisolated(nonsending) package func seenFact(_ number: Int, _ kind: FactKind) async throws
    -> NumberFact?
  {
    try await seenFacts([number], kind)[number]
  }
}

extension FactStore {
  /// Where the person left off: the count and the kind.
  package struct Session: Hashable, Sendable {
    /// The number on the counter.
    package var count: Int
    /// The kind of fact asked for.
    package var kind: FactKind

    /// A session at `count`, asking for `kind`.
    package init(count: Int, kind: FactKind) {
      self.count = count
      self.kind = kind
    }
  }

  /// Which stored facts to read.
  package struct HistoryQuery: Hashable, Sendable {
    /// Only facts whose text contains this, ignoring case; all when `nil` or empty.
    package var search: String?
    /// At most this many, newest first.
    package var limit: Int

    /// A query; by default every fact the store keeps.
    package init(search: String? = nil, limit: Int = FactStore.historyLimit) {
      self.search = search
      self.limit = limit
    }

    /// Whether `text` matches ``search``.
    package func matches(_ text: String) -> Bool {
      guard let search, !search.isEmpty else { return true }
      if let found = Self.asciiContains(text, search) { return found }
      return text.range(of: search, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    /// Whether ASCII `text` contains ASCII `search`, ignoring case; `nil` when either is not
    /// ASCII. Between ASCII strings, ignoring case and diacritics is folding A–Z to a–z,
    /// and a search of 100,000 stored facts costs a fifth of Foundation's.
    private static func asciiContains(_ text: String, _ search: String) -> Bool? {
      var text = text
      var search = search
      return text.withUTF8 { text in
        search.withUTF8 { search in
          guard text.allSatisfy({ $0 < 0x80 }), search.allSatisfy({ $0 < 0x80 }) else {
            return nil
          }
          guard search.count <= text.count else { return false }
          @inline(__always) func folded(_ byte: UInt8) -> UInt8 {
            byte &- 0x41 < 26 ? byte | 0x20 : byte
          }
          let first = folded(search[0])
          for start in 0...(text.count - search.count) where folded(text[start]) == first {
            var offset = 1
            while offset < search.count, folded(text[start + offset]) == folded(search[offset]) {
              offset += 1
            }
            if offset == search.count { return true }
          }
          return false
        }
      }
    }
  }
}
