import ConcurrencyExtras
import FactClient
import NumberFactTesting
import Synchronization
import TaskProvidingTesting
import Testing

/// A primary client whose answers the test sets, counting how often it is asked.
final class Primary: Sendable {
  let outcome = LockIsolated<Result<String, NumberFactError>>(
    .failure(.timedOut(after: .seconds(5))))
  let calls = Atomic(0)

  var client: NumberFactClient {
    NumberFactClient { number, kind in
      self.calls.add(1, ordering: .relaxed)
      let text = try self.outcome.withValue { try $0.get() }
      return NumberFact(number: number, kind: kind, text: text, host: "numbersapi.com")
    }
  }

  func set(_ outcome: Result<String, NumberFactError>) {
    self.outcome.withValue { $0 = outcome }
  }
}

@Suite struct FallbackTests {
  let primary = Primary()
  let clock = ExplorationClock()
  let client: NumberFactClient

  init() {
    client = .fallingBack(
      from: primary.client, host: "numbersapi.com",
      policy: FallbackPolicy(firstBackOff: .seconds(15), longestBackOff: .seconds(60)),
      clock: clock)
  }

  @Test func aTransportFailureIsAnsweredOfflineWithTheReason() async throws {
    let fact = try await client.fact(1729, .math)
    #expect(fact.source == .offline)
    #expect(fact.offlineReason == "numbersapi.com did not answer in 5 s")
    #expect(fact.sourceLine == "offline: numbersapi.com did not answer in 5 s")
    #expect(try await fact.text == NumberFactClient.offline.fact(1729, .math).text)
  }

  @Test func duringTheBackOffThePrimaryIsNotAsked() async throws {
    _ = try await client.fact(1, .trivia)
    clock.advance(by: .seconds(14))
    for number in 2...5 {
      let fact = try await client.fact(number, .trivia)
      #expect(fact.source == .offline && fact.number == number)
      // True of this number, now: it was not asked, and why.
      #expect(
        fact.offlineReason
          == "not asked for another 1 s: at the last try, numbersapi.com did not answer in 5 s")
    }
    #expect(primary.calls.load(ordering: .relaxed) == 1)
  }

  @Test func afterTheBackOffTheNextRequestAsksAgainAndAnAnswerEndsTheFallback() async throws {
    _ = try await client.fact(1, .trivia)
    primary.set(.success("Live again."))
    clock.advance(by: .seconds(15))
    let fact = try await client.fact(2, .trivia)
    #expect(fact.source == .live && fact.text == "Live again.")
    #expect(fact.sourceLine == "from numbersapi.com")
    #expect(try await client.fact(3, .trivia).source == .live)
    #expect(primary.calls.load(ordering: .relaxed) == 3)
  }

  @Test func eachFailedRetryDoublesTheBackOffUpToTheLongest() async throws {
    var asked: [Int] = []
    // Ask once a second for 4 minutes and note the seconds at which the primary is asked.
    for second in 0..<240 {
      let before = primary.calls.load(ordering: .relaxed)
      _ = try await client.fact(second, .trivia)
      if primary.calls.load(ordering: .relaxed) > before { asked.append(second) }
      clock.advance(by: .seconds(1))
    }
    // 15, 30, 60, then 60 again: the longest.
    #expect(asked == [0, 15, 45, 105, 165, 225])
  }

  @Test func aSuccessResetsTheBackOff() async throws {
    _ = try await client.fact(1, .trivia)
    clock.advance(by: .seconds(15))
    primary.set(.success("Live."))
    _ = try await client.fact(1, .trivia)
    primary.set(.failure(.noNetwork))
    let fact = try await client.fact(1, .trivia)
    #expect(fact.offlineReason == "no network")
    clock.advance(by: .seconds(15))
    _ = try await client.fact(1, .trivia)
    #expect(primary.calls.load(ordering: .relaxed) == 4)
  }

  @Test(arguments: [
    (NumberFactError.unreachable(host: "numbersapi.com"), "cannot reach numbersapi.com"),
    (.connectionLost, "the connection to numbersapi.com was lost"),
    (.tlsFailed(host: "numbersapi.com"), "TLS handshake with numbersapi.com failed"),
    (.noNetwork, "no network"),
    (.timedOut(after: .milliseconds(1_500)), "numbersapi.com did not answer in 1.5 s"),
  ])
  func eachTransportFailureSaysWhy(error: NumberFactError, reason: String) async throws {
    primary.set(.failure(error))
    #expect(try await client.fact(7, .year).offlineReason == reason)
  }

  @Test(arguments: [
    NumberFactError.httpStatus(404), .httpStatus(429),
    .malformedResponse(reason: "not a JSON fact"),
    .responseTooLarge(limit: 65_536),
  ])
  func answersThatAreWrongAreThrownAndStartNoFallback(error: NumberFactError) async throws {
    primary.set(.failure(error))
    await #expect(throws: error) { try await client.fact(7, .year) }
    primary.set(.success("Live."))
    #expect(try await client.fact(7, .year).source == .live)
  }

  @Test(arguments: [500, 502, 503, 599])
  func aServerFailureFallsBackLikeAnUnreachableHost(status: Int) async throws {
    primary.set(.failure(.httpStatus(status)))
    let fact = try await client.fact(7, .year)
    #expect(fact.source == .offline)
    #expect(fact.offlineReason == "numbersapi.com answered HTTP \(status)")
    #expect(
      try await client.fact(8, .year).offlineReason?.hasPrefix("not asked for another") == true)
    #expect(primary.calls.load(ordering: .relaxed) == 1)
  }

  @Test func askingTheNetworkNowEndsTheBackOff() async throws {
    _ = try await client.fact(1, .trivia)
    primary.set(.success("Back."))
    #expect(try await client.fact(2, .trivia).source == .offline)
    client.askNetworkNow()
    let fact = try await client.fact(3, .trivia)
    #expect(fact.source == .live && fact.text == "Back.")
    #expect(primary.calls.load(ordering: .relaxed) == 2)
  }

  @Test func theTimeLeftIsRoundedUpToWholeSeconds() async throws {
    _ = try await client.fact(1, .trivia)
    clock.advance(by: .milliseconds(14_500))
    #expect(
      try await client.fact(2, .trivia).offlineReason
        == "not asked for another 1 s: at the last try, numbersapi.com did not answer in 5 s")
    clock.advance(by: .milliseconds(499))
    #expect(
      try await client.fact(3, .trivia).offlineReason?.hasPrefix("not asked for another 1 s")
        == true)
  }

  @Test func aCancelledRequestThrowsCancellationAndStartsNoFallback() async throws {
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await client.fact(7, .year)
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    primary.set(.success("Live."))
    #expect(try await client.fact(7, .year).source == .live)
  }
}

@Suite struct OfflineAPITests {
  @Test func randomDrawsFromTheInjectedGeneratorWithinTheRange() async throws {
    let client = NumberFactClient.offline(random: { $0.lowerBound + 7 })
    let fact = try await client.random(.year, 1900...1999)
    #expect(fact.number == 1907 && fact.kind == .year && fact.source == .offline)
    #expect(try await client.random(.date, nil).number == 8)
  }

  @Test func aGeneratorOutsideTheRangeIsClamped() async throws {
    let client = NumberFactClient.offline(random: { _ in .max })
    #expect(try await client.random(.trivia, -5...5).number == 5)
  }

  @Test func batchesComeBackInOrder() async throws {
    let numbers = [3, -1, .max, .min, 3]
    let facts = try await NumberFactClient.offline.facts(numbers, .math)
    #expect(facts.map(\.number) == numbers)
  }

  @Test func theDefaultBatchAsksForEachNumberInOrder() async throws {
    let asked = LockIsolated<[Int]>([])
    let client = NumberFactClient { number, kind in
      asked.withValue { $0.append(number) }
      return NumberFact(number: number, kind: kind, text: "\(number)")
    }
    let facts = try await client.facts([5, 1, 5], .trivia)
    #expect(facts.map(\.text) == ["5", "1", "5"])
    #expect(asked.withValue { $0 } == [5, 1, 5])
  }

  @Test(arguments: [(60, 2, 29), (1, 1, 1), (366, 12, 31), (61, 3, 1), (59, 2, 28)])
  func daysOfTheYearAreLeapYearDates(dayOfYear: Int, month: Int, day: Int) throws {
    let date = try #require(FactDate(dayOfYear: dayOfYear))
    #expect(date.month == month && date.day == day)
    #expect(FactDate(parsing: "\(month)/\(day)")?.dayOfYear == dayOfYear)
  }

  @Test(arguments: [
    "2/30", "4/31", "13/1", "0/5", "1/0", "1/", "/1", "1/1/1", "x/y", "001/1", "-1/5",
  ])
  func impossibleDatesAreRefused(text: String) {
    #expect(FactDate(parsing: text) == nil)
  }

  @Test func fallingBackCoversRandomAndBatches() async throws {
    let down = NumberFactClient(
      fact: { _, _ in throw NumberFactError.noNetwork },
      random: { _, _ in throw NumberFactError.noNetwork },
      facts: { _, _ in throw NumberFactError.noNetwork })
    let client = NumberFactClient.fallingBack(
      from: down, host: "numbersapi.com",
      to: .offline(random: { $0.lowerBound }))
    let random = try await client.random(.math, 10...20)
    #expect(random.number == 10 && random.offlineReason == "no network")
    let facts = try await client.facts([1, 2], .math)
    // Within the back-off: not asked, and the reason says so.
    #expect(
      facts.allSatisfy {
        $0.offlineReason == "not asked for another 15 s: at the last try, no network"
      })
  }
}
