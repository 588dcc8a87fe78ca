import AsyncAlgorithms
import PeerScenarios
import TaskProvidingTesting
import Testing

/// swift-async-algorithms 1.1.4: `buffer`, `zip`, `combineLatest` and `chain`, each fed by
/// tasks of its own.
extension PeerCodeTests {
  struct Broken: Error {}

  /// A stream of `elements`, and the task of its own that yields each, then finishes it.
  static func fed<Element: Sendable>(
    _ elements: [Element]
  ) -> (AsyncStream<Element>, Task<Void, Never>) {
    let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    let feeder = Task {
      for element in elements { continuation.yield(element) }
      continuation.finish()
    }
    return (stream, feeder)
  }

  /// `buffer(policy: .bounded(2))`: "Terminal events from the upstream `AsyncSequence`, such as
  /// normal completion or failure, are delayed, ensuring that the consumer will receive all the
  /// elements before receiving the termination" (Evolution/0010-buffer.md:104): an upstream
  /// that fails after three elements, consumed at any pace, gives the three, then the error.
  @Test func aBufferDeliversEveryElementBeforeTheUpstreamsError() async {
    _ = await Self.exploreEveryWay { exploration in
      let (numbers, feed) = AsyncThrowingStream.makeStream(of: Int.self)
      let feeder = Task {
        for number in 1...3 { feed.yield(number) }
        feed.finish(throwing: Broken())
      }
      let consumer = Task {
        var received: [Int] = []
        do {
          for try await number in numbers.buffer(policy: .bounded(2)) { received.append(number) }
          return (received, false)
        } catch {
          return (received, error is Broken)
        }
      }
      await feeder.value
      let (received, threw) = await consumer.value
      exploration.atEnd("1, 2 and 3, then the error") { received == [1, 2, 3] && threw }
    }
  }

  /// "If the consuming `Task` is cancelled, so will be the `Task` supporting the iteration of
  /// the upstream `AsyncSequence`" (Evolution/0010-buffer.md:106): the consumer cancelled at
  /// any point returns, and the upstream's iteration ends.
  @Test func cancellingABuffersConsumerEndsTheUpstream() async {
    _ = await Self.exploreEveryWay { exploration in
      let ended = Ended()
      let (numbers, feed) = AsyncStream.makeStream(of: Int.self)
      feed.onTermination = { _ in ended.mark("upstream") }
      feed.yield(1)
      let consumer = Task {
        for await _ in numbers.buffer(policy: .bounded(2)) {}
      }
      exploration.action("cancel the consumer") { consumer.cancel() }
      await consumer.value
      exploration.atEnd("the upstream's iteration ended") { ended.contains("upstream") }
    }
  }

  /// `zip`: "Each iteration of an `AsyncZipSequence` will await for all base iterators to
  /// produce a value … If any of the base iterations terminates by returning `nil` … returns
  /// `nil`" (Guides/Zip.md:67): two streams fed by two tasks give their pairs in order, and
  /// the zip ends with the shorter.
  @Test func zipPairsElementsInOrderAndEndsWithTheShorter() async {
    _ = await Self.exploreEveryWay { exploration in
      let (numbers, feedingNumbers) = Self.fed([1, 2, 3])
      let (letters, feedingLetters) = Self.fed(["a", "b"])
      let feeders = [feedingNumbers, feedingLetters]
      var pairs: [String] = []
      for await (number, letter) in zip(numbers, letters) { pairs.append("\(number)\(letter)") }
      for feeder in feeders { await feeder.value }
      let all = pairs
      exploration.atEnd("1a, then 2b, then the end") { all == ["1a", "2b"] }
    }
  }

  /// `combineLatest`: it "only emits a value whenever any of the base `AsyncSequence`s emit a
  /// value (so long as each of the bases have emitted at least one value)", and "finishes …
  /// when all bases finished" (AsyncCombineLatest2Sequence.swift:12–18): the last pair is
  /// both bases' last values, and each base's values come in order.
  @Test func combineLatestEndsOnBothBasesLastValues() async {
    _ = await Self.exploreEveryWay { exploration in
      let (numbers, feedingNumbers) = Self.fed([1, 2])
      let (letters, feedingLetters) = Self.fed(["a", "b"])
      let feeders = [feedingNumbers, feedingLetters]
      var pairs: [(Int, String)] = []
      for await pair in combineLatest(numbers, letters) { pairs.append(pair) }
      for feeder in feeders { await feeder.value }
      let all = pairs
      exploration.atEnd("ends on 2b, each base's values in order") {
        let numbers = all.map(\.0)
        let letters = all.map(\.1)
        return all.last.map { $0 == (2, "b") } == true && numbers == numbers.sorted()
          && letters == letters.sorted()
      }
    }
  }

  /// `chain`: "iterates first over the elements of `s1`, and then over the elements of `s2`"
  /// (AsyncChain2Sequence.swift:17), and "if one of the comprising asynchronous sequences throws
  /// an error during iteration, the resulting `AsyncChainSequence` iteration will throw that
  /// error and end iteration" (Guides/Chain.md:69).
  @Test func chainGivesTheFirstThenTheSecondThenTheError() async {
    _ = await Self.exploreEveryWay { exploration in
      let (first, one) = AsyncThrowingStream.makeStream(of: Int.self)
      let (second, two) = AsyncThrowingStream.makeStream(of: Int.self)
      let feeders = [
        Task {
          for number in 1...2 { one.yield(number) }
          one.finish()
        },
        Task {
          two.yield(3)
          two.finish(throwing: Broken())
        },
      ]
      var received: [Int] = []
      var threw = false
      do {
        for try await number in chain(first, second) { received.append(number) }
      } catch {
        threw = error is Broken
      }
      for feeder in feeders { await feeder.value }
      let (all, failed) = (received, threw)
      exploration.atEnd("1, 2, 3, then the second's error") { all == [1, 2, 3] && failed }
    }
  }
}

extension PeerCodeTests {
  /// `debounce`, its consumer cancelled between two `next()` calls: the second returns
  /// nothing, and the upstream's iteration ends.
  ///
  /// A finding: the iteration never ends. `DebounceStateMachine.cancelled()` in
  /// `.waitingForDemand` (line 593) moves to `.finished` and returns no action, so the task
  /// that iterates the upstream is never cancelled (docs/peer-code.md, finding 3).
  @Test func aDebounceCancelledBetweenTwoNextCallsEndsItsUpstream() async {
    let failures = await Self.exploreExpectingFinding(
      PeerFailure.debounceCancelledBetweenTwoNextCalls.scenario)
    #expect(failures.allSatisfy { $0.nondeterminism == nil })
  }
}
