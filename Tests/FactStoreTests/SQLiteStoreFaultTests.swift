import FactClient
import FactStore
import FactStoreSQLite
import Foundation
import GRDB
import LockSupport
import TaskProviding
import Testing

/// What the SQLite store does with files it cannot use: it says so and leaves them alone.
@Suite struct SQLiteStoreFaultTests {
  static let fact = NumberFact(number: 1, kind: .trivia, text: "one", host: "numbersapi.com")

  @Test func aFileThatIsNotADatabaseIsReportedAndLeftAsItIs() async throws {
    let directory = TemporaryFolder()
    let path = directory.path + "/store.sqlite"
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    try garbage.write(to: URL(fileURLWithPath: path))
    let store = FactStore.sqlite(at: path)
    await #expect {
      try await store.record([Self.fact], Date())
    } throws: { error in
      guard case .unreadable(let reported, _) = error as? FactStoreError else { return false }
      return reported == path
    }
    await #expect(throws: FactStoreError.self) { try await store.history(.init()) }
    await #expect(throws: FactStoreError.self) { try await store.seenFact(1, .trivia) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    let siblings = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(siblings == ["store.sqlite"])
  }

  @Test func aTruncatedDatabaseIsReportedAndLeftAsItIs() async throws {
    let directory = TemporaryFolder()
    let path = directory.path + "/store.sqlite"
    let store = FactStore.sqlite(at: path)
    try await store.record(
      (1...200).map { NumberFact(number: $0, kind: .math, text: "\($0)") }, Date())
    // Only the main file, cut in half, as a crash of the disk might leave it.
    try? FileManager.default.removeItem(atPath: path + "-wal")
    try? FileManager.default.removeItem(atPath: path + "-shm")
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    let half = whole.prefix(whole.count / 2)
    try half.write(to: URL(fileURLWithPath: path))
    let reopened = FactStore.sqlite(at: path)
    do {
      _ = try await reopened.history(.init())
    } catch let error as FactStoreError {
      #expect(error.description.contains(path))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(half.count) == half)
  }

  @Test func aDirectoryThatCannotBeWrittenIsReported() async throws {
    let directory = TemporaryFolder()
    let readOnly = directory.path + "/read-only"
    try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
    #expect(chmod(readOnly, 0o555) == 0)
    defer { _ = chmod(readOnly, 0o755) }
    let store = FactStore.sqlite(at: readOnly + "/numberfact/store.sqlite")
    if geteuid() == 0 {
      // As root the directory is writable after all; the store simply works.
      try await store.record([Self.fact], Date())
      #expect(try await store.history(.init()).count == 1)
    } else {
      await #expect(throws: FactStoreError.self) { try await store.record([Self.fact], Date()) }
    }
  }

  @Test func aMissingDirectoryIsCreated() async throws {
    let directory = TemporaryFolder()
    let path = directory.path + "/a/b/numberfact/store.sqlite"
    let store = FactStore.sqlite(at: path)
    try await store.record([Self.fact], Date())
    #expect(FileManager.default.fileExists(atPath: path))
  }

  /// A store holding ``fact``, whose file `edit` then changes directly, as another program
  /// could; and the directory to keep until the test ends.
  static func storeEditedBehindItsBack(
    _ edit: @escaping @Sendable (Database) throws -> Void
  ) async throws -> (FactStore, TemporaryFolder) {
    let directory = TemporaryFolder()
    let path = directory.path + "/store.sqlite"
    let store = FactStore.sqlite(at: path)
    try await store.record([Self.fact], Date())  // creates and migrates the file
    try await DatabaseQueue(path: path).write(edit)
    return (store, directory)
  }

  /// A fact shown and the session are one write: when the session cannot be saved, the
  /// fact is not kept either, so a crash between the two cannot leave one without the other.
  @Test func aFactShownAndTheSessionAreKeptTogetherOrNotAtAll() async throws {
    let (store, directory) = try await Self.storeEditedBehindItsBack { db in
      try db.execute(
        sql: """
          CREATE TRIGGER refuse_session BEFORE INSERT ON session
          BEGIN SELECT RAISE(ABORT, 'the session is refused'); END
          """)
    }
    defer { _ = directory }
    let two = NumberFact(number: 2, kind: .trivia, text: "two", host: "numbersapi.com")
    await #expect(throws: FactStoreError.self) {
      try await store.recordShown([two], Date(), .init(count: 2, kind: .trivia))
    }
    #expect(try await store.history(.init()).map(\.text) == ["one"])
    #expect(try await store.loadSession() == nil)
  }

  /// Text put in the file by anything but the app, escapes and all, is sanitized as it is
  /// read, by every read: nothing read from the file reaches a terminal raw.
  @Test func textEditedIntoTheFileIsSanitizedWhenRead() async throws {
    let (store, directory) = try await Self.storeEditedBehindItsBack { db in
      try db.execute(
        sql: """
          INSERT INTO fact (number, kind, text, found, source, host, seen)
          VALUES (7, 'trivia', ?, 1, 'live', 'numbersapi.com', 0)
          """,
        arguments: ["seven\u{1B}]52;c;aGk=\u{07}  is\n\u{1B}[2Jlucky"])
    }
    defer { _ = directory }
    let texts = Locked<[String]>([])
    try await store.eachTextInHistory(.init()) { text in texts.withLock { $0.append(text) } }
    #expect(texts.withLock { $0 } == ["seven is lucky", "one"])
    #expect(try await store.history(.init()).map(\.text) == ["seven is lucky", "one"])
  }

  /// Stores opening one new file at once all open it: the one that loses the race to apply
  /// a migration sees it applied and goes on (one such race failed a run).
  @Test func storesOpeningANewFileAtOnceAllOpenIt() async throws {
    for _ in 0..<20 {
      let directory = TemporaryFolder()
      let path = directory.path + "/store.sqlite"
      try await withThrowingTaskGroup(of: Void.self) { group in
        for number in 1...4 {
          group.addTask {
            try await FactStore.sqlite(at: path).recordShown(
              [NumberFact(number: number, kind: .trivia, text: "fact \(number)")], Date(),
              .init(count: number, kind: .trivia))
          }
        }
        try await group.waitForAll()
      }
      let numbers = Set(try await FactStore.sqlite(at: path).history(.init()).map(\.number))
      #expect(numbers == Set(1...4))
    }
  }

  @Test func twoStoresOnOneFileLoseNoWrite() async throws {
    let directory = TemporaryFolder()
    let path = directory.path + "/store.sqlite"
    // The writes contend for the file by design; the busy timeout is not what is tested,
    // and a loaded machine can keep one write waiting past the app's 5 s.
    let first = FactStore.sqlite(at: path, busyTimeout: .seconds(60))
    let second = FactStore.sqlite(at: path, busyTimeout: .seconds(60))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for number in 1...60 {
        let store = number.isMultiple(of: 2) ? first : second
        group.addTask {
          try await store.record(
            [NumberFact(number: number, kind: .trivia, text: "fact \(number)")], Date())
        }
      }
      try await group.waitForAll()
    }
    let numbers = Set(try await first.history(.init()).map(\.number))
    #expect(numbers == Set(1...60))
  }

  @Test func theDefaultPathFollowsXDG() {
    #expect(
      FactStore.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"])
        == "/data/numberfact/store.sqlite")
    #expect(
      FactStore.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"])
        == "/home/a/.local/share/numberfact/store.sqlite")
    #expect(
      FactStore.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/home/a"])
        == "/home/a/.local/share/numberfact/store.sqlite")
    #expect(FactStore.defaultPath(environment: [:]) == nil)
  }
}
