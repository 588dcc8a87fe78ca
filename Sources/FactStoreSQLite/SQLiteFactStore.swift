import FactClient
import FactStore
import Foundation
import GRDB
import TaskProviding

extension FactStore {
  /// The app's store: SQLite at `path`, in WAL mode, so several processes read and write it at
  /// once.
  ///
  /// Nothing is opened until the first operation, so building the store costs the first
  /// frame nothing. A file that is not a database this version can read is never written:
  /// every operation then throws ``FactStoreError/unreadable(path:reason:)``. A missing
  /// directory is created.
  ///
  /// - Parameters:
  ///   - path: The database file, usually ``FactStore/defaultPath(environment:)``.
  ///   - limit: The most facts kept; the oldest seen go first.
  ///   - busyTimeout: How long a write waits for another process's before giving up.
  public static func sqlite(
    at path: String, limit: Int = FactStore.historyLimit, busyTimeout: Duration = .seconds(5)
  ) -> Self {
    let database = SQLiteDatabase(path: path, limit: limit, busyTimeout: busyTimeout)
    return Self(
      record: { facts, seen in try await database.record(facts, seen: seen) },
      history: { query in try await database.history(query) },
      seenFacts: { numbers, kind in try await database.seenFacts(numbers, kind) },
      clearHistory: { try await database.clear() },
      loadSession: { try await database.loadSession() },
      saveSession: { session in try await database.saveSession(session) })
  }
}

/// The database behind ``FactStore/sqlite(at:limit:busyTimeout:)``, opened on first use.
private actor SQLiteDatabase {
  let path: String
  let limit: Int
  let busyTimeout: Duration
  private var opened: Result<DatabasePool, FactStoreError>?

  init(path: String, limit: Int, busyTimeout: Duration) {
    self.path = path
    self.limit = max(1, limit)
    self.busyTimeout = busyTimeout
  }

  /// The pool, opening it (and migrating it) the first time. A file that cannot be read or
  /// written is not tried again in this process: the person is told once, and the file is
  /// left alone.
  private func pool() async throws -> DatabasePool {
    if let opened { return try opened.get() }
    // Two processes opening a new file at once both switch it to WAL, and SQLite fails the
    // one that loses without waiting for the busy timeout; it succeeds a moment later.
    let clock = ContinuousClock()
    let deadline = clock.now + busyTimeout
    while true {
      let result = await Self.open(path: path, busyTimeout: busyTimeout)
      if case .failure(.busy) = result, clock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
        continue
      }
      // A busy database may be free next time; a file that cannot be read or written is not.
      switch result {
      case .failure(.busy), .failure(.failed): break
      default: opened = result
      }
      return try result.get()
    }
  }

  /// Opens and migrates the database on a thread of its own: SQLite waits for another
  /// process's lock by sleeping in the calling thread, which must not be one of the few the
  /// tasks of the whole process run on.
  private static func open(
    path: String, busyTimeout: Duration
  ) async -> Result<DatabasePool, FactStoreError> {
    // Handed over through a lock, which ThreadSanitizer sees, rather than through the
    // continuation alone, which it does not: the pool was built on the other thread.
    let opened = Locked<Result<DatabasePool, FactStoreError>?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        let result = openHere(path: path, busyTimeout: busyTimeout)
        opened.withLock { $0 = result }
        continuation.resume()
      }
    }
    return opened.withLock { $0 } ?? .failure(.failed(path: path, reason: "not opened"))
  }

  private static func openHere(
    path: String, busyTimeout: Duration
  ) -> Result<DatabasePool, FactStoreError> {
    let directory = (path as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      return .failure(
        .cannotCreateDirectory(
          path: directory, reason: (error as NSError).localizedDescription))
    }
    do {
      var configuration = Configuration()
      let (seconds, attoseconds) = busyTimeout.components
      configuration.busyMode = .timeout(Double(seconds) + Double(attoseconds) / 1e18)
      configuration.label = "numberfact store"
      let pool = try DatabasePool(path: path, configuration: configuration)
      do {
        try migrator.migrate(pool)
      } catch {
        // Another process may have migrated between this one's check and its write; the
        // second pass sees its work.
        try migrator.migrate(pool)
      }
      return .success(pool)
    } catch {
      return .failure(storeError(error, path: path))
    }
  }

  func record(_ facts: [NumberFact], seen: Date) async throws {
    guard !facts.isEmpty else { return }
    let limit = limit
    try await access {
      try await $0.write { db in
        var position = try Int64.fetchOne(db, sql: "SELECT max(position) FROM fact") ?? 0
        for fact in facts {
          position += 1
          try db.execute(
            sql: """
              INSERT INTO fact (number, kind, text, found, source, host, seen, position)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (number, kind, text) DO UPDATE SET
                found = excluded.found, source = excluded.source, host = excluded.host,
                seen = excluded.seen, position = excluded.position
              """,
            arguments: [
              fact.number, fact.kind.rawValue, fact.text, fact.found,
              fact.source == .offline ? "offline" : "live", fact.host,
              seen.timeIntervalSince1970, position,
            ])
        }
        // Trimmed now and then, not on every write: a count is a scan.
        if position % 128 < Int64(facts.count) || facts.count > 128 {
          try db.execute(
            sql: """
              DELETE FROM fact WHERE position <= (
                SELECT position FROM fact ORDER BY position DESC LIMIT 1 OFFSET ?)
              """,
            arguments: [limit])
        }
      }
    }
  }

  func history(_ query: FactStore.HistoryQuery) async throws -> [NumberFact] {
    try await access {
      try await $0.read { db in
        var facts: [NumberFact] = []
        let rows = try Row.fetchCursor(
          db,
          sql: """
            SELECT number, kind, text, found, source, host, seen FROM fact
            ORDER BY position DESC
            """)
        while facts.count < query.limit, let row = try rows.next() {
          guard let fact = Self.fact(row), query.matches(fact.text) else { continue }
          facts.append(fact)
        }
        return facts
      }
    }
  }

  func seenFacts(_ numbers: [Int], _ kind: FactKind) async throws -> [Int: NumberFact] {
    guard !numbers.isEmpty else { return [:] }
    return try await access {
      try await $0.read { db in
        var found: [Int: NumberFact] = [:]
        let statement = try db.cachedStatement(
          sql: """
            SELECT number, kind, text, found, source, host, seen FROM fact
            WHERE number = ? AND kind = ? AND source = 'live'
            ORDER BY position DESC LIMIT 1
            """)
        for number in Set(numbers) {
          guard
            let row = try Row.fetchOne(statement, arguments: [number, kind.rawValue]),
            var fact = Self.fact(row)
          else { continue }
          fact.source = .stored
          found[number] = fact
        }
        return found
      }
    }
  }

  func clear() async throws -> Int {
    try await access {
      try await $0.write { db in
        try db.execute(sql: "DELETE FROM fact")
        return db.changesCount
      }
    }
  }

  func loadSession() async throws -> FactStore.Session? {
    try await access {
      try await $0.read { db in
        guard let row = try Row.fetchOne(db, sql: "SELECT count, kind FROM session WHERE id = 1"),
          let kind = FactKind(rawValue: row["kind"])
        else { return nil }
        return FactStore.Session(count: row["count"], kind: kind)
      }
    }
  }

  func saveSession(_ session: FactStore.Session) async throws {
    try await access {
      try await $0.write { db in
        try db.execute(
          sql: """
            INSERT INTO session (id, count, kind) VALUES (1, ?, ?)
            ON CONFLICT (id) DO UPDATE SET count = excluded.count, kind = excluded.kind
            """,
          arguments: [session.count, session.kind.rawValue])
      }
    }
  }

  /// Runs `body` on the pool, with every failure as a ``FactStoreError``.
  private func access<T: Sendable>(
    _ body: (DatabasePool) async throws -> T
  ) async throws -> T {
    let pool = try await pool()
    do {
      return try await body(pool)
    } catch let error as CancellationError {
      throw error
    } catch {
      throw Self.storeError(error, path: path)
    }
  }

  /// A fact from a row; `nil` for a row this version cannot read (a kind it does not know).
  ///
  /// The row's columns are, in order: number, kind, text, found, source, host, seen. They
  /// are read by position: by name, each read hashes the name, and `history` reads 100,000
  /// rows.
  private static func fact(_ row: Row) -> NumberFact? {
    guard let kind = FactKind(rawValue: row[1]) else { return nil }
    let source: String = row[4]
    return NumberFact(
      number: row[0], kind: kind, text: row[2], found: row[3],
      source: source == "live" ? .live : .offline, host: row[5],
      seen: Date(timeIntervalSince1970: row[6]))
  }

  private static func storeError(_ error: any Error, path: String) -> FactStoreError {
    guard let error = error as? DatabaseError else {
      return .failed(path: path, reason: String(describing: error))
    }
    switch error.resultCode {
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      return .unreadable(path: path, reason: error.message ?? "not a database")
    case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN, .SQLITE_AUTH:
      return .readOnly(path: path)
    case .SQLITE_FULL:
      return .diskFull(path: path)
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return .busy(path: path)
    default:
      return .failed(path: path, reason: error.message ?? "\(error.resultCode)")
    }
  }

  private static let migrator: DatabaseMigrator = {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE IF NOT EXISTS fact (
            id INTEGER PRIMARY KEY,
            number INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            found INTEGER NOT NULL,
            source TEXT NOT NULL,
            host TEXT,
            seen REAL NOT NULL,
            position INTEGER NOT NULL,
            UNIQUE (number, kind, text)
          );
          CREATE INDEX IF NOT EXISTS fact_by_position ON fact (position);
          CREATE INDEX IF NOT EXISTS fact_by_number ON fact (number, kind, source, position);
          CREATE TABLE IF NOT EXISTS session (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            count INTEGER NOT NULL,
            kind TEXT NOT NULL
          );
          """)
    }
    return migrator
  }()
}
