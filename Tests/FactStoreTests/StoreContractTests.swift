import FactClient
import FactStore
import FactStoreSQLite
import Foundation
import LockSupport
import TaskProviding
import Testing

/// The rules every store keeps, checked on the in-memory store and on SQLite alike.
@Suite struct StoreContractTests {
  /// A store under test, and the directory to remove afterwards.
  enum Kind: String, CaseIterable, CustomTestStringConvertible {
    /// `sqliteInBackground` is the app's store: its writes run on a thread of their own.
    case inMemory, sqlite, sqliteInBackground
    var testDescription: String { rawValue }

    func make(limit: Int = FactStore.historyLimit) -> (FactStore, TemporaryFolder?) {
      switch self {
      case .inMemory: return (.inMemory(limit: limit), nil)
      case .sqlite, .sqliteInBackground:
        let directory = TemporaryFolder()
        let store = FactStore.sqlite(
          at: directory.path + "/store.sqlite", limit: limit,
          backgroundWrites: self == .sqliteInBackground)
        return (store, directory)
      }
    }
  }

  static let day = Date(timeIntervalSince1970: 1_700_000_000)

  static func live(_ number: Int, _ text: String, kind: FactKind = .trivia) -> NumberFact {
    NumberFact(number: number, kind: kind, text: text, host: "numbersapi.com")
  }

  @Test(arguments: Kind.allCases)
  func historyIsNewestFirstAndARepeatMovesToTheTop(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.record([Self.live(1, "one")], Self.day)
    try await store.record([Self.live(2, "two")], Self.day + 1)
    try await store.record([Self.live(1, "one")], Self.day + 2)
    let history = try await store.history(.init())
    #expect(history.map(\.text) == ["one", "two"])
    #expect(history.first?.seen == Self.day + 2)
  }

  @Test(arguments: Kind.allCases)
  func theWalkOfHistoryGivesWhatHistoryGives(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.record((1...40).map { Self.live($0, "fact \($0)") }, Self.day)
    for query in [
      FactStore.HistoryQuery(), .init(limit: 7), .init(search: "FACT 3"),
      .init(search: "fact 1", limit: 3),
    ] {
      let walked = Locked<[String]>([])
      try await store.eachInHistory(query) { fact in walked.withLock { $0.append(fact.text) } }
      let texts = Locked<[String]>([])
      try await store.eachTextInHistory(query) { text in texts.withLock { $0.append(text) } }
      let history = try await store.history(query).map(\.text)
      #expect(walked.withLock { $0 } == history)
      #expect(texts.withLock { $0 } == history)
    }
    #expect(
      try await store.history(.init(search: "fact 1", limit: 3)).map(\.text) == [
        "fact 19", "fact 18", "fact 17",
      ])
  }

  /// An error the walk's body throws ends the walk and comes back to the caller.
  @Test(arguments: Kind.allCases)
  func anErrorFromTheWalksBodyEndsIt(_ kind: Kind) async throws {
    struct Enough: Error {}
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.record((1...10).map { Self.live($0, "fact \($0)") }, Self.day)
    /// A body that throws on its `n`th element.
    func throwing<Element>(on n: Int, counting seen: Locked<Int>)
      -> @Sendable (Element) throws
      -> Void
    {
      { _ in
        try seen.withLock {
          $0 += 1
          if $0 == n { throw Enough() }
        }
      }
    }
    let seen = Locked(0)
    await #expect(throws: Enough.self) {
      try await store.eachInHistory(.init(), throwing(on: 2, counting: seen))
    }
    #expect(seen.withLock { $0 } == 2)
    let seenTexts = Locked(0)
    await #expect(throws: Enough.self) {
      try await store.eachTextInHistory(.init(), throwing(on: 3, counting: seenTexts))
    }
    #expect(seenTexts.withLock { $0 } == 3)
  }

  @Test(arguments: Kind.allCases)
  func theSameNumberWithAnotherKindOrTextIsAnotherEntry(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.record(
      [Self.live(1, "one"), Self.live(1, "one", kind: .math), Self.live(1, "uno")], Self.day)
    #expect(try await store.history(.init()).count == 3)
  }

  @Test(arguments: Kind.allCases)
  func theOldestGoFirstPastTheLimit(_ kind: Kind) async throws {
    let (store, directory) = kind.make(limit: 5)
    defer { _ = directory }
    // One batch larger than any trimming interval, then single writes past it.
    try await store.record((1...300).map { Self.live($0, "fact \($0)") }, Self.day)
    for number in 301...310 {
      try await store.record([Self.live(number, "fact \(number)")], Self.day)
    }
    #expect(try await store.history(.init()).map(\.number) == [310, 309, 308, 307, 306])
  }

  @Test(arguments: Kind.allCases)
  func aRepeatTakesNoSecondPlaceUnderTheLimit(_ kind: Kind) async throws {
    let (store, directory) = kind.make(limit: 5)
    defer { _ = directory }
    try await store.record((1...5).map { Self.live($0, "fact \($0)") }, Self.day)
    try await store.record([Self.live(3, "fact 3")], Self.day)
    // Five facts still: the repeat moved, so only the oldest gives way to a new one.
    try await store.record([Self.live(6, "fact 6")], Self.day)
    #expect(try await store.history(.init()).map(\.number) == [6, 3, 5, 4, 2])
    _ = try await store.clearHistory()
    try await store.record((7...13).map { Self.live($0, "fact \($0)") }, Self.day)
    #expect(try await store.history(.init()).map(\.number) == [13, 12, 11, 10, 9])
  }

  @Test(arguments: Kind.allCases)
  func searchIgnoresCaseAndLimitCounts(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.record(
      [Self.live(1, "The Answer"), Self.live(2, "a prime"), Self.live(3, "answer again")],
      Self.day)
    let found = try await store.history(.init(search: "answer"))
    #expect(found.map(\.number) == [3, 1])
    #expect(try await store.history(.init(search: "answer", limit: 1)).map(\.number) == [3])
  }

  @Test(arguments: Kind.allCases)
  func aSeenFactIsTheNewestLiveOneAndSaysWhen(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.record([Self.live(42, "old")], Self.day)
    try await store.record([Self.live(42, "new")], Self.day + 60)
    try await store.record(
      [NumberFact(number: 42, kind: .trivia, text: "computed", source: .offline)], Self.day + 120)
    let seen = try #require(try await store.seenFact(42, .trivia))
    #expect(seen.text == "new")
    #expect(seen.source == .stored)
    #expect(seen.host == "numbersapi.com")
    #expect(seen.seen == Self.day + 60)
    #expect(try await store.seenFact(42, .math) == nil)
    #expect(try await store.seenFact(7, .trivia) == nil)
  }

  @Test(arguments: Kind.allCases)
  func aStoredFactShownAgainMovesToTheTopAsALiveOne(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.record([Self.live(5, "five"), Self.live(6, "six")], Self.day)
    let seen = try #require(try await store.seenFact(5, .trivia))
    try await store.record([seen], Self.day + 100)
    let history = try await store.history(.init())
    #expect(history.map(\.number) == [5, 6])
    #expect(history.first?.seen == Self.day + 100)
    #expect(history.first?.source == .live)
    #expect(try await store.seenFact(5, .trivia)?.seen == Self.day + 100)
  }

  @Test(arguments: Kind.allCases)
  func clearEmptiesHistoryAndSaysHowMany(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.record([Self.live(1, "a"), Self.live(2, "b")], Self.day)
    #expect(try await store.clearHistory() == 2)
    #expect(try await store.history(.init()).isEmpty)
  }

  @Test(arguments: Kind.allCases)
  func theSessionIsKept(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    #expect(try await store.loadSession() == nil)
    try await store.saveSession(.init(count: -7, kind: .year))
    try await store.saveSession(.init(count: Int.max, kind: .math))
    #expect(try await store.loadSession() == .init(count: Int.max, kind: .math))
  }

  @Test(arguments: Kind.allCases)
  func aFactShownIsKeptWithTheSession(_ kind: Kind) async throws {
    let (store, directory) = kind.make()
    defer { _ = directory }
    try await store.recordShown([Self.live(3, "three")], Self.day, .init(count: 3, kind: .trivia))
    try await store.recordShown([Self.live(4, "four")], Self.day + 1, .init(count: 4, kind: .math))
    #expect(try await store.history(.init()).map(\.text) == ["four", "three"])
    #expect(try await store.history(.init()).first?.seen == Self.day + 1)
    #expect(try await store.loadSession() == .init(count: 4, kind: .math))
  }
}
