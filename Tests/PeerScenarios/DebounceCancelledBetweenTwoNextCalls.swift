import AsyncAlgorithms
import TaskProvidingTesting

extension PeerFailure {
  /// `debounce`, its consumer cancelled between two `next()` calls: the second returns
  /// nothing, and the upstream's iteration should end. It never does:
  /// `DebounceStateMachine.cancelled()` in `.waitingForDemand` (line 593) moves to
  /// `.finished` and returns no action, so the task that iterates the upstream is never
  /// cancelled.
  package static let debounceCancelledBetweenTwoNextCalls = PeerFailure(
    name: "a debounce cancelled between two next() calls leaves its upstream running",
    package: "swift-async-algorithms 1.1.4", isCostly: false
  ) { exploration in
    let ended = Ended()
    let (typed, keys) = AsyncStream.makeStream(of: String.self)
    keys.onTermination = { _ in ended.mark("upstream") }
    keys.yield("swift")
    let clock = exploration.clock
    let consumer = Task {
      var searches = typed.debounce(for: .milliseconds(300), clock: clock).makeAsyncIterator()
      let first = await searches.next()
      withUnsafeCurrentTask { $0?.cancel() }
      let second = await searches.next()
      return (first, second)
    }
    let (first, second) = await consumer.value
    exploration.atEnd("swift, then nothing, and the upstream's iteration ended") {
      first == "swift" && second == nil && ended.contains("upstream")
    }
  }
}
