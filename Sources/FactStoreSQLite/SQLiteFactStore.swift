import FactClient
import FactStore
import Foundation
import GRDB
import LockSupport

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
  ///   - backgroundWrites: Whether writes run on a thread of the lowest priority, so that
  ///     they never take a core from the keys of an interactive app. Off for a command
  ///     that only waits for its write.
  package static func sqlite(
    at path: String, limit: Int = FactStore.historyLimit, busyTimeout: Duration = .seconds(5),
    backgroundWrites: Bool = false
  ) -> Self {
    let database = SQLiteDatabase(
      path: path, limit: limit, busyTimeout: busyTimeout,
      background: backgroundWrites ? BackgroundWriteThread() : nil)
    return Self(
      record: { facts, seen in try await database.record(facts, seen: seen) },
      history: { query in try await database.history(query) },
      seenFacts: { numbers, kind in
        // Once the store is open, a seen fact is read right here, on the asking thread: no
        // hop to the database's actor and none to a reader's queue, for the fact is on screen
        // within a millisecond of the key. A reader in WAL mode waits for no writer.
        if let pool = database.openPool.withLock({ $0 }) {
          return try SQLiteDatabase.seenFacts(numbers, kind, in: pool, path: path)
        }
        return try await database.seenFacts(numbers, kind)
      },
      clearHistory: { try await database.clear() },
      loadSession: { try await database.loadSession() },
      saveSession: { session in try await database.saveSession(session) },
      eachInHistory: { query, body in try await database.eachInHistory(query, body) },
      eachTextInHistory: { query, body in try await database.eachTextInHistory(query, body) },
      recordShown: { facts, seen, session in
        try await database.recordShown(facts, seen: seen, session: session)
      })
  }
}

/// The database behind ``FactStore/sqlite(at:limit:busyTimeout:)``, opened on first use.
private actor SQLiteDatabase {
  let path: String
  let limit: Int
  let busyTimeout: Duration
  private var opened: Result<DatabasePool, FactStoreError>?
  /// The pool once it has opened, for the reads that need no actor.
  nonisolated let openPool = Locked<DatabasePool?>(nil)
  private let background: BackgroundWriteThread?

  init(path: String, limit: Int, busyTimeout: Duration, background: BackgroundWriteThread?) {
    self.path = path
    self.limit = max(1, limit)
    self.busyTimeout = busyTimeout
    self.background = background
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
      if case .success(let pool) = result { openPool.withLock { $0 = pool } }
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
      configuration.busyMode = .timeout(busyTimeout.inSeconds)
      configuration.label = "numberfact store"
      // In WAL mode, NORMAL stays consistent through a crash or `kill -9`; only a power cut
      // can lose the last facts seen. FULL would wait for the disk twice per fact shown,
      // beside the frame that shows it.
      configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
      let pool = try DatabasePool(path: path, configuration: configuration)
      // Another process migrating the same new file may apply a migration between this
      // one's check and its write, which then fails; the next pass sees it applied. Each
      // failed pass so leaves one migration fewer, so one pass per migration ends it.
      var passes = 0
      while true {
        do {
          try migrator.migrate(pool)
          break
        } catch {
          passes += 1
          if passes > migrator.migrations.count { throw error }
        }
      }
      return .success(pool)
    } catch {
      return .failure(storeError(error, path: path))
    }
  }

  func record(_ facts: [NumberFact], seen: Date) async throws {
    guard !facts.isEmpty else { return }
    let limit = limit
    try await write { db in try Self.insert(facts, seen: seen, limit: limit, in: db) }
  }

  func recordShown(
    _ facts: [NumberFact], seen: Date, session: FactStore.Session
  ) async throws {
    let limit = limit
    try await write { db in
      try Self.insert(facts, seen: seen, limit: limit, in: db)
      try Self.save(session, in: db)
    }
  }

  private static func insert(
    _ facts: [NumberFact], seen: Date, limit: Int, in db: Database
  ) throws {
    guard !facts.isEmpty else { return }
    // A fact seen again loses its row, and a new row takes the next position: the repeat
    // moves to the top instead of appearing twice. Deleted first, not replaced by
    // `INSERT OR REPLACE`, whose delete would not fire the trigger that counts the rows.
    let remove = try db.cachedStatement(
      sql: "DELETE FROM fact WHERE number = ? AND kind = ? AND text = ?")
    let add = try db.cachedStatement(
      sql: """
        INSERT INTO fact (number, kind, text, found, source, host, seen)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """)
    for fact in facts {
      try remove.execute(arguments: [fact.number, fact.kind.rawValue, fact.text])
      try add.execute(arguments: [
        fact.number, fact.kind.rawValue, fact.text, fact.found,
        fact.source == .offline ? "offline" : "live", fact.host,
        seen.timeIntervalSince1970,
      ])
    }
    // The count is kept by triggers, so the cut is found from the oldest end, a few rows
    // in; counting or walking from the newest end reads every row, milliseconds of a core
    // beside the frame at 100,000 facts.
    let count =
      try Int.fetchOne(db.cachedStatement(sql: "SELECT count FROM fact_count WHERE id = 1"))
      ?? 0
    if count > limit {
      try db.execute(
        sql: """
          DELETE FROM fact WHERE position IN (
            SELECT position FROM fact ORDER BY position LIMIT ?)
          """,
        arguments: [count - limit])
    }
  }

  func history(_ query: FactStore.HistoryQuery) async throws -> [NumberFact] {
    try await access {
      try await $0.read { db in
        var facts: [NumberFact] = []
        try Self.walkHistory(db, query) { facts.append($0) }
        return facts
      }
    }
  }

  func eachInHistory(
    _ query: FactStore.HistoryQuery, _ body: @escaping @Sendable (NumberFact) throws -> Void
  ) async throws {
    try await walk(body) { db, body in try Self.walkHistory(db, query, body) }
  }

  func eachTextInHistory(
    _ query: FactStore.HistoryQuery, _ body: @escaping @Sendable (String) throws -> Void
  ) async throws {
    try await walk(body) { db, body in
      let texts = try String.fetchCursor(db, sql: "SELECT text FROM fact ORDER BY position DESC")
      var count = 0
      while count < query.limit, let stored = try texts.next() {
        // Stored text was sanitized when it was written, unless the file was edited since.
        let text = FactText.sanitize(stored)
        guard query.matches(text) else { continue }
        try body(text)
        count += 1
      }
    }
  }

  /// Runs `walk` in a read of the database, handing it `body`. The body's own error comes
  /// back as it was thrown, not as the store's failure.
  private func walk<Element>(
    _ body: @escaping @Sendable (Element) throws -> Void,
    _ walk: @escaping @Sendable (Database, (Element) throws -> Void) throws -> Void
  ) async throws {
    let thrownByBody = Locked<(any Error)?>(nil)
    do {
      try await access {
        try await $0.read { db in
          try walk(db) { element in
            do {
              try body(element)
            } catch {
              thrownByBody.withLock { $0 = error }
              throw error
            }
          }
        }
      }
    } catch {
      throw thrownByBody.withLock { $0 } ?? error
    }
  }

  /// Hands the facts `query` asks for to `body`, newest first. Newest first is the table's
  /// own order backwards: no index, no lookups.
  private static func walkHistory(
    _ db: Database, _ query: FactStore.HistoryQuery, _ body: (NumberFact) throws -> Void
  ) throws {
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT number, kind, text, found, source, host, seen FROM fact
        ORDER BY position DESC
        """)
    var count = 0
    while count < query.limit, let row = try rows.next() {
      guard let fact = fact(row), query.matches(fact.text) else { continue }
      try body(fact)
      count += 1
    }
  }

  func seenFacts(_ numbers: [Int], _ kind: FactKind) async throws -> [Int: NumberFact] {
    guard !numbers.isEmpty else { return [:] }
    return try Self.seenFacts(numbers, kind, in: try await pool(), path: path)
  }

  /// The newest live fact of `kind` for each of `numbers`, read on the calling thread.
  static func seenFacts(
    _ numbers: [Int], _ kind: FactKind, in pool: DatabasePool, path: String
  ) throws -> [Int: NumberFact] {
    guard !numbers.isEmpty else { return [:] }
    do {
      // One statement per number, each consistent by itself: the snapshot a read transaction
      // would add costs two more statements and buys nothing here.
      return try pool.unsafeRead { db in
        var found: [Int: NumberFact] = [:]
        let statement = try db.cachedStatement(
          sql: """
            SELECT number, kind, text, found, source, host, seen FROM fact
            WHERE number = ? AND kind = ? AND source = 'live'
            ORDER BY position DESC LIMIT 1
            """)
        for number in numbers.count == 1 ? numbers : Array(Set(numbers)) {
          // Read from the statement itself: `fetchOne` would first copy the row, every
          // column and its name, which costs more than the lookup.
          let rows = try Row.fetchCursor(statement, arguments: [number, kind.rawValue])
          guard let row = try rows.next(), var fact = Self.fact(row) else { continue }
          fact.source = .stored
          found[number] = fact
        }
        return found
      }
    } catch {
      throw storeError(error, path: path)
    }
  }

  func clear() async throws -> Int {
    try await write { db in
      try db.execute(sql: "DELETE FROM fact")
      return db.changesCount
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
    try await write { db in try Self.save(session, in: db) }
  }

  private static func save(_ session: FactStore.Session, in db: Database) throws {
    let statement = try db.cachedStatement(
      sql: """
        INSERT INTO session (id, count, kind) VALUES (1, ?, ?)
        ON CONFLICT (id) DO UPDATE SET count = excluded.count, kind = excluded.kind
        """)
    try statement.execute(arguments: [session.count, session.kind.rawValue])
  }

  /// Runs `body` in a write transaction, on the background thread if there is one.
  private func write<T: Sendable>(
    _ body: @escaping @Sendable (Database) throws -> T
  ) async throws -> T {
    try await access { pool in
      guard let background else { return try await pool.write(body) }
      return try await background.run { try pool.write(body) }
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
    // Sizing the shared index of the log fails when the disk has no block left for it.
    case .SQLITE_IOERR where error.extendedResultCode == .SQLITE_IOERR_SHMSIZE:
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
    // The position becomes the row's own key, so the newest-first walk of `history` reads
    // the table in order instead of looking each row up from an index. It repeats v1's
    // columns on purpose: a migration is history, kept as it shipped, never shared.
    migrator.registerMigration("v2: position is the row id") { db in
      try db.execute(
        sql: """
          CREATE TABLE fact_v2 (
            position INTEGER PRIMARY KEY,
            number INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            found INTEGER NOT NULL,
            source TEXT NOT NULL,
            host TEXT,
            seen REAL NOT NULL,
            UNIQUE (number, kind, text)
          );
          INSERT INTO fact_v2 (number, kind, text, found, source, host, seen)
            SELECT number, kind, text, found, source, host, seen FROM fact ORDER BY position;
          DROP TABLE fact;
          ALTER TABLE fact_v2 RENAME TO fact;
          CREATE INDEX fact_by_number ON fact (number, kind, source);
          """)
    }
    // SQLite keeps no count of a table's rows; trimming to the limit needs one on every
    // write.
    migrator.registerMigration("v3: the facts are counted") { db in
      try db.execute(
        sql: """
          CREATE TABLE fact_count (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            count INTEGER NOT NULL
          );
          INSERT INTO fact_count (id, count) SELECT 1, count(*) FROM fact;
          CREATE TRIGGER fact_added AFTER INSERT ON fact BEGIN
            UPDATE fact_count SET count = count + 1 WHERE id = 1;
          END;
          CREATE TRIGGER fact_removed AFTER DELETE ON fact BEGIN
            UPDATE fact_count SET count = count - 1 WHERE id = 1;
          END;
          """)
    }
    return migrator
  }()
}
