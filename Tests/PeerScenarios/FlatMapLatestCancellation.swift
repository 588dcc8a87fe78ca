import AsyncAlgorithms
import TaskProvidingTesting

extension PeerFailure {
  /// "Cancelling iteration cancels both the base and current inner sequence"
  /// (FlatMapLatest.md:82): a consumer cancelled while it waits returns, and both streams
  /// see their iteration end. Neither does: `FlatMapLatestStateMachine.cancelled()`, line
  /// 515, drops its `.cancelTasks` when a consumer waits.
  package static let flatMapLatestCancellation = PeerFailure(
    name: "a cancelled flatMapLatest consumer leaves both iterations running",
    package: "swift-async-algorithms 1.1.4", isCostly: false
  ) { exploration in
    let ended = Ended()
    let (numbers, feed) = AsyncStream.makeStream(of: Int.self)
    feed.onTermination = { _ in ended.mark("base") }
    feed.yield(1)
    let consumer = Task {
      for await _ in numbers.flatMapLatest({ _ in
        ended.mark("made")
        let (inner, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.onTermination = { _ in ended.mark("inner") }
        return inner
      }) {}
    }
    exploration.action("cancel the consumer") { consumer.cancel() }
    await consumer.value
    exploration.atEnd("both iterations ended") {
      ended.contains("base") && (ended.contains("inner") || !ended.contains("made"))
    }
  }
}
