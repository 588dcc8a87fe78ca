import NIOConcurrencyHelpers
import NIOCore
import PeerScenarios
import TaskProvidingTesting
import Testing

/// swift-nio 2.101: `NIOAsyncSequenceProducer` (NIOAsyncSequenceProducer.swift,
/// NIOThrowingAsyncSequenceProducer.swift), `NIOAsyncWriter` and `NIOLockedValueBox`.
extension PeerCodeTests {
  typealias Watermark = NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark

  /// Elements yielded by a task of their own, then the source finished: the consumer gets
  /// each in order, then the end; `didTerminate()` "is guaranteed to be called _exactly_
  /// once" (NIOAsyncSequenceProducer.swift:78), and `produceMore()` "will never be called
  /// after `didTerminate()`" (line 63).
  @Test func aProducersElementsArriveInOrderAndItTerminatesOnce() async {
    _ = await Self.exploreEveryWay { exploration in
      let log = DelegateLog()
      let made = NIOAsyncSequenceProducer.makeSequence(
        elementType: Int.self, backPressureStrategy: Watermark(lowWatermark: 1, highWatermark: 2),
        finishOnDeinit: true, delegate: log)
      let source = made.source
      let producer = Task {
        for element in 1...3 { _ = source.yield(element) }
        source.finish()
      }
      let consumer = Task { [sequence = made.sequence] in
        var received: [Int] = []
        for await element in sequence { received.append(element) }
        return received
      }
      await producer.value
      let received = await consumer.value
      exploration.atEnd("1, 2 and 3 in order, one termination, no demand after it") {
        received == [1, 2, 3] && log.terminations == 1 && !log.producedMoreAfterTermination
      }
    }
  }

  /// The consumer cancelled at any point while elements come: it returns, and by the end
  /// the delegate heard of the termination exactly once.
  @Test func aCancelledProducerConsumerTerminatesOnce() async {
    _ = await Self.exploreEveryWay { exploration in
      let log = DelegateLog()
      let made = NIOThrowingAsyncSequenceProducer.makeSequence(
        elementType: Int.self, failureType: (any Error).self,
        backPressureStrategy: Watermark(lowWatermark: 1, highWatermark: 2),
        finishOnDeinit: true, delegate: log)
      let source = made.source
      let consumer = Task { [sequence = made.sequence] in
        var received: [Int] = []
        do {
          for try await element in sequence { received.append(element) }
        } catch {}
        return received
      }
      exploration.action("cancel the consumer") { consumer.cancel() }
      let producer = Task {
        for element in 1...2 { _ = source.yield(element) }
        source.finish()
      }
      await producer.value
      let received = await consumer.value
      exploration.atEnd("a prefix of 1 and 2 arrived, and one termination") {
        [1, 2].starts(with: received) && log.terminations == 1
          && !log.producedMoreAfterTermination
      }
    }
  }

  /// The non-throwing producer, its consumer cancelled at any point while one element comes:
  /// by the end the delegate heard of the termination exactly once.
  @Test func aCancelledNonThrowingConsumerTerminatesOnce() async {
    let failures = await Self.exploreExpectingFinding(
      PeerFailure.producerCancelledBeforeItsFirstNext.scenario)
    #expect(failures.allSatisfy { $0.nondeterminism == nil })
  }

  /// A writer fed by two tasks, then finished: every element reaches the sink once, each
  /// task's in its order ("Within a thread there is no possibility of re-ordering",
  /// NIOAsyncWriter.swift:575), and the sink's `didTerminate` comes at most once.
  @Test func aWritersElementsReachItsSinkOnceEach() async {
    _ = await Self.exploreEveryWay { exploration in
      let log = DelegateLog()
      let made = NIOAsyncWriter.makeWriter(
        elementType: Int.self, isWritable: true, finishOnDeinit: true, delegate: log)
      let writer = made.writer
      let writers = [[1, 2], [3, 4]].map { elements in
        Task {
          for element in elements { try? await writer.yield(element) }
        }
      }
      for task in writers { await task.value }
      writer.finish()
      made.sink.finish()
      exploration.atEnd("1 to 4 once each, 1 before 2, 3 before 4; at most one termination") {
        let written = log.written.withLockedValue { $0 }
        let first = written.filter { $0 <= 2 }
        let second = written.filter { $0 > 2 }
        return written.sorted() == [1, 2, 3, 4] && first == [1, 2] && second == [3, 4]
          && log.terminations <= 1
      }
    }
  }

  /// `NIOLockedValueBox`: "no different than creating a `Lock` and protecting all accesses to
  /// a value using the lock" (NIOLockedValueBox.swift:17): two tasks' increments all count.
  @Test func lockedValueBoxIncrementsAllCount() async {
    _ = await Self.exploreEveryWay { exploration in
      let box = NIOLockedValueBox(0)
      let tasks = (1...2).map { _ in
        Task {
          box.withLockedValue { $0 += 1 }
          await Task.yield()  // virtual time
          box.withLockedValue { $0 += 1 }
        }
      }
      for task in tasks { await task.value }
      exploration.atEnd("four increments") { box.withLockedValue { $0 } == 4 }
    }
  }
}
