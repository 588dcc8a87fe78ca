import GRDB
import TaskProvidingTesting
import Testing

/// groue/GRDB.swift 7.10: async reads and writes of a `DatabaseQueue`. Its work runs on a
/// dispatch queue of its own, outside the explorer's view: the explorer orders the tasks'
/// steps on either side of each access, not the accesses themselves, and its report says so.
extension PeerCodeTests {
  /// "Database operations run in the writer dispatch queue, serialized with all database
  /// updates performed by this `DatabaseWriter`" (DatabaseQueue.swift:437):
  /// two tasks that each add one in a write both count, and a read afterwards sees both.
  @Test func databaseQueueWritesFromTwoTasksBothCount() async throws {
    let report = await explore(.exhaustive(limit: Self.limit / 100)) { exploration in
      let database = try DatabaseQueue()
      try await database.write { db in
        try db.execute(sql: "CREATE TABLE counter (value INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO counter VALUES (0)")
      }
      let writers = (1...2).map { _ in
        Task {
          try await database.write { db in
            try db.execute(sql: "UPDATE counter SET value = value + 1")
          }
        }
      }
      for writer in writers { try await writer.value }
      let value = try await database.read { db in
        try Int.fetchOne(db, sql: "SELECT value FROM counter")
      }
      exploration.atEnd("both writes counted") { value == 2 }
    }
    #expect(report.failure == nil)
    #expect(report.schedules >= 1)
    // The queue's work is outside the explorer's view: where the report says so, the space
    // is not called complete.
    #expect(report.outsideWork == nil || !report.isComplete)
  }
}
