import FactClient
import FactStore
import Foundation
import LockSupport
import Testing

/// Offline facts come from what was seen before, and from computation only for the rest.
@Suite struct SeenFirstClientTests {
  static let seenAt = Date(timeIntervalSince1970: 1_700_000_000)

  static func storeWithFortyTwo() async throws -> FactStore {
    let store = FactStore.inMemory()
    try await store.record(
      [NumberFact(number: 42, kind: .trivia, text: "the answer", host: "numbersapi.com")],
      seenAt)
    return store
  }

  @Test func aSeenNumberComesFromTheStoreAndOthersAreComputed() async throws {
    let client = NumberFactClient.seenFirst(store: try await Self.storeWithFortyTwo())
    let seen = try await client.fact(42, .trivia)
    #expect(seen.text == "the answer")
    #expect(seen.source == .stored)
    #expect(
      seen.sourceLine(now: Self.seenAt + 3 * 86_400) == "seen 3 days ago, from numbersapi.com")
    #expect(try await client.fact(42, .math).source == .offline)
    let batch = try await client.facts([41, 42, 43], .trivia)
    #expect(batch.map(\.source) == [.offline, .stored, .offline])
    #expect(batch.map(\.number) == [41, 42, 43])
  }

  @Test func aFailingStoreIsSkippedAndHeardOf() async throws {
    let failures = Locked<[FactStoreError]>([])
    let broken = FactStoreError.unreadable(path: "/x/store.sqlite", reason: "not a database")
    let client = NumberFactClient.seenFirst(
      store: .inMemory(failure: broken),
      storeFailed: { error in failures.withLock { $0.append(error) } })
    #expect(try await client.fact(42, .trivia).source == .offline)
    #expect(failures.withLock { $0 } == [broken])
  }

  @Test func theFallbackOfAnUnreachableServerGivesTheSeenFactWithTheReason() async throws {
    let unreachable = NumberFactClient { _, _ in
      throw NumberFactError.unreachable(host: "numbersapi.com")
    }
    let client = NumberFactClient.fallingBack(
      from: unreachable, host: "numbersapi.com",
      to: .seenFirst(store: try await Self.storeWithFortyTwo()))
    let fact = try await client.fact(42, .trivia)
    #expect(fact.source == .stored)
    #expect(fact.offlineReason == "cannot reach numbersapi.com")
    #expect(
      fact.sourceLine(now: Self.seenAt + 90)
        == "seen 1 minute ago, from numbersapi.com (offline: cannot reach numbersapi.com)")
  }

  @Test(arguments: [
    (0.0, "seen just now"), (-500, "seen just now"), (59, "seen just now"),
    (60, "seen 1 minute ago"), (3_599, "seen 59 minutes ago"), (3_600, "seen 1 hour ago"),
    (86_399, "seen 23 hours ago"), (86_400, "seen yesterday"), (2 * 86_400, "seen 2 days ago"),
    (60 * 86_400, "seen 60 days ago"), (.infinity, "seen just now"),
  ])
  func agesReadAsAPersonSaysThem(_ seconds: Double, _ phrase: String) {
    #expect(SeenAge.phrase(seen: Self.seenAt, now: Self.seenAt + seconds) == phrase)
  }

  @Test func anOldFactGivesItsDate() {
    let phrase = SeenAge.phrase(seen: Self.seenAt, now: Self.seenAt + 400 * 86_400)
    #expect(phrase.hasPrefix("seen on 2023-11-1"))
  }
}
