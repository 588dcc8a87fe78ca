import ConcurrencyExtras
import TaskProvidingTesting
import Testing

/// pointfreeco/swift-concurrency-extras 1.4.3: `LockIsolated` and the `AsyncStream` helpers.
/// `ActorIsolated` is deprecated in this version ("Use 'LockIsolated' instead") and left out.
extension PeerCodeTests {
  /// `withValue(_:)` "isolates the entire transaction and avoids data races between reading
  /// and writing the value" (LockIsolated.swift:74): two tasks' read-modify-writes, each
  /// split by an await between two transactions, all count.
  @Test func lockIsolatedTransactionsAllCount() async {
    _ = await Self.exploreEveryWay { exploration in
      let count = LockIsolated(0)
      let tasks = (1...2).map { _ in
        Task {
          count.withValue { $0 += 1 }
          await Task.yield()  // virtual time
          count.withValue { $0 += 1 }
        }
      }
      for task in tasks { await task.value }
      exploration.atEnd("four increments") { count.value == 4 }
    }
  }

  /// `AsyncStream(_:)` "produced by consuming the sequence till it terminates"
  /// (AsyncStream.swift:4): a stream erased from another, fed by a task, gives every element
  /// in order, then ends.
  @Test func anErasedStreamGivesEveryElementInOrder() async {
    _ = await Self.exploreEveryWay { exploration in
      let (numbers, feed) = AsyncStream.makeStream(of: Int.self)
      let erased = numbers.eraseToStream()
      let feeder = Task {
        for number in 1...3 { feed.yield(number) }
        feed.finish()
      }
      var received: [Int] = []
      for await number in erased { received.append(number) }
      await feeder.value
      let all = received
      exploration.atEnd("1, 2 and 3, in order") { all == [1, 2, 3] }
    }
  }

  /// `AsyncStream.never` "never emits and never completes unless cancelled"
  /// (AsyncStream.swift:77): its consumer, cancelled at any point, returns with nothing.
  @Test func aNeverStreamEndsOnlyWhenCancelled() async {
    _ = await Self.exploreEveryWay { exploration in
      let consumer = Task {
        var received = 0
        for await _ in AsyncStream<Int>.never { received += 1 }
        return received
      }
      exploration.action("cancel the consumer") { consumer.cancel() }
      let received = await consumer.value
      exploration.atEnd("nothing arrived") { received == 0 }
    }
  }
}
