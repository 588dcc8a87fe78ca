import AsyncAlgorithms
import PeerScenarios
import TaskProvidingTesting
import Testing

/// `flatMapLatest` (FlatMapLatest/, Guides/FlatMapLatest.md).
extension PeerCodeTests {
  /// "The sequence completes when the base sequence finishes and the final inner sequence
  /// completes" (FlatMapLatest.md:80), and no stale value follows a newer one: each query
  /// typed, searched, ends with the last query's results.
  @Test func flatMapLatestEndsWithTheLastInnerSequence() async {
    _ = await Self.exploreEveryWay { exploration in
      let (typed, keys) = AsyncStream.makeStream(of: String.self)
      for query in ["s", "sw", "swift"] { keys.yield(query) }
      keys.finish()
      let searches = Task {
        var results: [String] = []
        for await result in typed.flatMapLatest({ [$0 + "!"].async }) { results.append(result) }
        return results
      }
      let results = await searches.value
      exploration.atEnd("the results end with swift's, each query's once, in order") {
        let order = ["s!", "sw!", "swift!"]
        let positions = results.compactMap { order.firstIndex(of: $0) }
        return results.last == "swift!" && positions.count == results.count
          && positions == positions.sorted() && Set(positions).count == positions.count
      }
    }
  }

  /// "It throws when either the base type or any inner sequence throws" (FlatMapLatest.md:60).
  @Test func flatMapLatestThrowsTheBasesError() async {
    struct Broken: Error {}
    _ = await Self.exploreEveryWay { exploration in
      let (numbers, feed) = AsyncThrowingStream.makeStream(of: Int.self)
      feed.yield(1)
      feed.finish(throwing: Broken())
      let consumer = Task {
        do {
          for try await _ in numbers.flatMapLatest({ [$0].async }) {}
          return false
        } catch {
          return error is Broken
        }
      }
      let threw = await consumer.value
      exploration.atEnd("the consumer got the base's error") { threw }
    }
  }

  /// "Cancelling iteration cancels both the base and current inner sequence"
  /// (FlatMapLatest.md:82): a consumer cancelled while it waits returns, and both streams
  /// see their iteration end.
  ///
  /// A finding: a consumer cancelled while it waits returns, but neither iteration ends
  /// (`FlatMapLatestStateMachine.cancelled()`, line 515, drops its `.cancelTasks` when a
  /// consumer waits). Found in the default order; shown on the real runtime by
  /// `RealRuntimeTests`.
  @Test func cancellingAFlatMapLatestConsumerEndsBothSequences() async {
    let failures = await Self.exploreExpectingFinding(
      PeerFailure.flatMapLatestCancellation.scenario)
    #expect(failures.first?.replay == "x2:")
    #expect(failures.allSatisfy { $0.departures == 0 && $0.nondeterminism == nil })
  }
}
