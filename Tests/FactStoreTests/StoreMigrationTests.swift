import FactClient
import FactStore
import FactStoreSQLite
import Foundation
import GRDB
import Testing

/// A store written by an earlier version opens in this one with every fact, in its order.
@Suite struct StoreMigrationTests {
  /// The first version's tables, as it created them, with `facts` written as it wrote them:
  /// position counting up from 1 in the order shown, and an id of its own.
  static func writeFirstVersion(at path: String, facts: [(Int, String)]) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
          INSERT INTO grdb_migrations VALUES ('v1');
          CREATE TABLE fact (
            id INTEGER PRIMARY KEY, number INTEGER NOT NULL, kind TEXT NOT NULL,
            text TEXT NOT NULL, found INTEGER NOT NULL, source TEXT NOT NULL, host TEXT,
            seen REAL NOT NULL, position INTEGER NOT NULL, UNIQUE (number, kind, text));
          CREATE INDEX fact_by_position ON fact (position);
          CREATE INDEX fact_by_number ON fact (number, kind, source, position);
          CREATE TABLE session (
            id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL, kind TEXT NOT NULL);
          INSERT INTO session VALUES (1, 42, 'math');
          """)
      // Ids in another order than positions: the order shown is the positions'.
      for (index, (number, text)) in facts.enumerated() {
        try db.execute(
          sql: """
            INSERT INTO fact (id, number, kind, text, found, source, host, seen, position)
            VALUES (?, ?, 'trivia', ?, 1, 'live', 'numbersapi.com', ?, ?)
            """,
          arguments: [1000 - index, number, text, 1_700_000_000 + Double(index), index + 1])
      }
    }
  }

  @Test func theFirstVersionsFactsAndSessionOpenInTheirOrder() async throws {
    let directory = TemporaryFolder()
    let path = directory.path + "/store.sqlite"
    try Self.writeFirstVersion(at: path, facts: [(1, "one"), (2, "two"), (3, "three")])
    let store = FactStore.sqlite(at: path)
    #expect(try await store.history(.init()).map(\.text) == ["three", "two", "one"])
    #expect(try await store.loadSession() == .init(count: 42, kind: .math))
    #expect(try await store.seenFact(2, .trivia)?.text == "two")
    // A repeat still moves to the top, and a new fact goes above it.
    try await store.record(
      [NumberFact(number: 1, kind: .trivia, text: "one", host: "numbersapi.com")], Date())
    try await store.record(
      [NumberFact(number: 4, kind: .trivia, text: "four", host: "numbersapi.com")], Date())
    #expect(try await store.history(.init()).map(\.text) == ["four", "one", "three", "two"])
  }

  @Test func anEarlierVersionsFactsCountTowardTheLimit() async throws {
    let directory = TemporaryFolder()
    let path = directory.path + "/store.sqlite"
    try Self.writeFirstVersion(at: path, facts: [(1, "one"), (2, "two"), (3, "three")])
    let store = FactStore.sqlite(at: path, limit: 3)
    try await store.record(
      [NumberFact(number: 4, kind: .trivia, text: "four", host: "numbersapi.com")], Date())
    #expect(try await store.history(.init()).map(\.text) == ["four", "three", "two"])
  }

  @Test func aMigratedStoreIsMigratedOnce() async throws {
    let directory = TemporaryFolder()
    let path = directory.path + "/store.sqlite"
    try Self.writeFirstVersion(at: path, facts: [(1, "one")])
    _ = try await FactStore.sqlite(at: path).history(.init())
    // A second process, later: nothing left to migrate, and nothing lost.
    let again = FactStore.sqlite(at: path)
    #expect(try await again.history(.init()).map(\.text) == ["one"])
    let applied = try await DatabaseQueue(path: path).read { db in
      try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
    }
    #expect(applied.count == 3)
  }
}
