import AsyncAlgorithms
import SuiteSupport
import TaskProvidingTesting
import Testing

/// The explorer on apple/swift-async-algorithms 1.1.4, code no one here wrote, with the
/// properties the library promises: no false alarm, and no hang. `merge` takes a lock and
/// gives it back inside a continuation's closure, which the runtime runs at once; an
/// explorer that ended the job there deadlocked (MergeStorage.swift:66–81).
///
/// Each exploration runs exhaustively and under PCT with several seeds; the schedule counts
/// are in docs/peer-code.md.
@Suite(.exploresInProcess, .timeLimit(.minutes(ThreadSanitizer.minutes(5))))
struct PeerCodeTests {
  // Under the sanitizer, fewer: that pass looks for data races, and runs several times slower.
  static let seeds: [UInt64] = ThreadSanitizer.isActive ? [1] : [1, 2, 3, 4, 5]
  static let limit = ThreadSanitizer.isActive ? 300 : 10_000
  static let pctSchedules = ThreadSanitizer.isActive ? 50 : 300
  static let issueCaseSchedules = ThreadSanitizer.isActive ? 100 : 500

  /// Runs `scenario` exhaustively (every schedule up to the default limit), under PCT with
  /// each seed, and under POS and the uniform walk with one; returns the exhaustive report.
  ///
  /// `costly`: a scenario whose schedules run many tasks (a clock that yields through twenty
  /// tasks of its own at each sleep): a hundredth of the schedules.
  @MainActor static func exploreEveryWay(
    costly: Bool = false,
    _ scenario: @escaping @MainActor @Sendable (Exploration) async throws -> Void
  ) async -> ExplorationReport {
    let exhaustive = await explore(.exhaustive(limit: costly ? limit / 100 : limit), scenario)
    #expect(exhaustive.failure == nil)
    for seed in seeds {
      let schedules = costly ? max(pctSchedules / 10, 5) : pctSchedules
      let pct = await explore(.pct(seed: seed, schedules: schedules, depth: 3), scenario)
      #expect(pct.failure == nil, "PCT seed \(seed)")
    }
    // The other samplers, with one seed each: no false alarm there either.
    let schedules = costly ? max(pctSchedules / 10, 5) : pctSchedules
    for strategy in [
      ExplorationStrategy.pos(seed: 1, schedules: schedules),
      .uniformWalk(seed: 1, schedules: schedules),
    ] {
      let sampled = await explore(strategy, scenario)
      #expect(sampled.failure == nil, "\(strategy)")
    }
    return exhaustive
  }

  /// Runs `scenario`, whose failure is a finding in the library (docs/peer-code.md),
  /// exhaustively (unless `pctOnly`) and under PCT with each seed; returns the failures, each
  /// reported as a known issue. Every strategy must find it.
  @MainActor static func exploreExpectingFinding(
    pctOnly: Bool = false,
    _ scenario: @escaping @MainActor @Sendable (Exploration) async throws -> Void
  ) async -> [ExplorationFailure] {
    var failures: [ExplorationFailure] = []
    let strategies =
      (pctOnly ? [] : [ExplorationStrategy.exhaustive(limit: limit)])
      + seeds.map { .pct(seed: $0, schedules: pctSchedules, depth: 3) }
    for strategy in strategies {
      var report: ExplorationReport?
      await withKnownIssue { report = await explore(strategy, scenario) }
      #expect(report?.failure != nil, "\(strategy) missed it")
      if let failure = report?.failure { failures.append(failure) }
    }
    return failures
  }

  // MARK: merge

  /// Two streams fed by two plain tasks (1 and 3; 2), merged and collected: every element
  /// once, each stream's in its order, and the consumer returns. The issue's own case: PCT
  /// with seed 3, 500 schedules, depth 3 never returned before.
  @Test func mergeOfTwoStreamsDeliversEveryElementInEachStreamsOrder() async {
    let report = await Self.exploreEveryWay { exploration in
      let (first, one) = AsyncStream.makeStream(of: Int.self)
      let (second, two) = AsyncStream.makeStream(of: Int.self)
      let feedOne = Task {
        one.yield(1)
        one.yield(3)
        one.finish()
      }
      let feedTwo = Task {
        two.yield(2)
        two.finish()
      }
      let collected = await Task {
        var all: [Int] = []
        for await element in merge(first, second) { all.append(element) }
        return all
      }.value
      await feedOne.value
      await feedTwo.value
      exploration.atEnd("1, 2 and 3 arrive once each, 1 before 3") {
        [[1, 3, 2], [1, 2, 3], [2, 1, 3]].contains(collected)
      }
    }
    #expect(report.schedules > 1)
    let issueCase = await explore(.pct(seed: 3, schedules: Self.issueCaseSchedules, depth: 3)) {
      exploration in
      let (first, one) = AsyncStream.makeStream(of: Int.self)
      let (second, two) = AsyncStream.makeStream(of: Int.self)
      Task {
        one.yield(1)
        one.yield(3)
        one.finish()
      }
      Task {
        two.yield(2)
        two.finish()
      }
      var all: [Int] = []
      for await element in merge(first, second) { all.append(element) }
      let collected = all
      exploration.atEnd("every element arrives") { collected.sorted() == [1, 2, 3] }
    }
    #expect(issueCase.failure == nil)
    #expect(issueCase.schedules == Self.issueCaseSchedules)
  }

  /// Three streams that each yield one element and finish: every element once. Its space
  /// is past the limit for the default reduction; assuming no state is shared but through
  /// what the scope sees, it is covered.
  @Test func mergeOfThreeStreamsDeliversEveryElement() async {
    let scenario: @MainActor @Sendable (Exploration) async -> Void = { exploration in
      let streams = (1...3).map { _ in AsyncStream.makeStream(of: Int.self) }
      for (number, (_, continuation)) in streams.enumerated() {
        Task {
          continuation.yield(number + 1)
          continuation.finish()
        }
      }
      var all: [Int] = []
      for await element in merge(streams[0].stream, streams[1].stream, streams[2].stream) {
        all.append(element)
      }
      let collected = all
      exploration.atEnd("1, 2 and 3 arrive once each") { collected.sorted() == [1, 2, 3] }
    }
    _ = await Self.exploreEveryWay(scenario)
    let assumed = await explore(.exhaustive(reduction: .assumingNoHiddenSharing), scenario)
    #expect(assumed.failure == nil)
    #expect(
      LinuxFacilities.coversOrSaysWhy(assumed) || ThreadSanitizer.isActive, "\(assumed.schedules)")
    #expect(assumed.assumption != nil)
  }

  // MARK: AsyncChannel

  /// A consumer cancelled while it waits in `next()` returns, with nothing or the one element
  /// sent, and the sender returns once the channel finishes.
  @Test func aCancelledConsumerReturns() async {
    _ = await Self.exploreEveryWay { exploration in
      let channel = AsyncChannel<Int>()
      let consumer = Task {
        var iterator = channel.makeAsyncIterator()
        return await iterator.next()
      }
      let sender = Task { await channel.send(1) }
      consumer.cancel()
      let received = await consumer.value
      channel.finish()
      await sender.value
      exploration.atEnd("the consumer got nothing or the element sent") {
        received == nil || received == 1
      }
    }
  }

  /// Two consumers of one channel: every element sent is received exactly once, each
  /// consumer's in the order sent.
  @Test func everyElementSentIsReceivedOnce() async {
    _ = await Self.exploreEveryWay { exploration in
      let channel = AsyncChannel<Int>()
      let producer = Task {
        for element in 1...3 { await channel.send(element) }
        channel.finish()
      }
      let consumers = (1...2).map { _ in
        Task {
          var received: [Int] = []
          for await element in channel { received.append(element) }
          return received
        }
      }
      await producer.value
      let first = await consumers[0].value
      let second = await consumers[1].value
      exploration.atEnd("1, 2 and 3 are received once each, in order by each consumer") {
        (first + second).sorted() == [1, 2, 3] && first == first.sorted()
          && second == second.sorted()
      }
    }
  }

  /// The same with every task off the main actor, as a server's are: assuming no state is
  /// shared but through what the scope sees, its space is covered.
  @Test func everyElementSentIsReceivedOnceOffTheMainActor() async {
    let scenario: @MainActor @Sendable (Exploration) async -> Void = { exploration in
      let channel = AsyncChannel<Int>()
      let producer = Task.detached {
        for element in 1...3 { await channel.send(element) }
        channel.finish()
      }
      let consumers = (1...2).map { _ in
        Task.detached {
          var received: [Int] = []
          for await element in channel { received.append(element) }
          return received
        }
      }
      await producer.value
      let first = await consumers[0].value
      let second = await consumers[1].value
      exploration.atEnd("1, 2 and 3 are received once each, in order by each consumer") {
        (first + second).sorted() == [1, 2, 3] && first == first.sorted()
          && second == second.sorted()
      }
    }
    let certain = await Self.exploreEveryWay(scenario)
    let assumed = await explore(.exhaustive(reduction: .assumingNoHiddenSharing), scenario)
    #expect(assumed.failure == nil)
    #expect(
      LinuxFacilities.coversOrSaysWhy(assumed) || ThreadSanitizer.isActive, "\(assumed.schedules)")
    #expect(assumed.schedules <= certain.schedules)
  }

  /// A throwing channel that fails while two consumers iterate: both end, and at least one
  /// of them throws.
  @Test func aFailedChannelEndsEveryConsumer() async {
    struct Broken: Error {}
    _ = await Self.exploreEveryWay { exploration in
      let channel = AsyncThrowingChannel<Int, any Error>()
      let consumers = (1...2).map { _ in
        Task { () -> Bool in
          do {
            for try await _ in channel {}
            return false
          } catch {
            return true
          }
        }
      }
      Task { channel.fail(Broken()) }
      let threw = [await consumers[0].value, await consumers[1].value]
      exploration.atEnd("every consumer ended, at least one by the failure") {
        threw.contains(true)
      }
    }
  }

  // MARK: debounce

  /// A search field: each query typed, debounced by 300 ms on `clock`, is searched.
  static func searches(
    _ typed: AsyncStream<String>, debouncedOn clock: ExplorationClock
  ) -> Task<[String], Never> {
    Task {
      var searched: [String] = []
      for await query in typed.debounce(for: .milliseconds(300), clock: clock) {
        searched.append(query)
      }
      return searched
    }
  }

  /// A burst of three values with no time passing, then the end of the input: debounce
  /// emits the last value only, on the exploration's clock.
  @Test func aBurstWithNoPauseEmitsItsLastValue() async {
    _ = await Self.exploreEveryWay { exploration in
      let (typed, keys) = AsyncStream.makeStream(of: String.self)
      let clock = exploration.clock
      let searches = Self.searches(typed, debouncedOn: clock)
      for query in ["s", "sw", "swift"] { keys.yield(query) }
      keys.finish()
      let searched = await searches.value
      exploration.atEnd("one search, for swift") { searched == ["swift"] }
    }
  }

  /// The same burst with the clock free to move while it is typed: the last value always
  /// comes, and no value comes twice or out of order.
  @Test func aBurstEndsWithItsLastValueWhateverTheClockDoes() async {
    _ = await Self.exploreEveryWay { exploration in
      let (typed, keys) = AsyncStream.makeStream(of: String.self)
      let clock = exploration.clock
      let searches = Self.searches(typed, debouncedOn: clock)
      let typing = Task {
        for query in ["s", "sw", "swift"] { keys.yield(query) }
        try? await clock.sleep(for: .milliseconds(300))  // virtual time
        keys.finish()
      }
      await typing.value
      let searched = await searches.value
      exploration.atEnd("the searches end with swift, each once, in the order typed") {
        let order = ["s", "sw", "swift"]
        let positions = searched.compactMap { order.firstIndex(of: $0) }
        return searched.last == "swift" && positions.count == searched.count
          && positions == positions.sorted() && Set(positions).count == positions.count
      }
    }
  }
}
