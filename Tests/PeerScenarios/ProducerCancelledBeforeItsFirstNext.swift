import NIOCore
import TaskProvidingTesting

extension PeerFailure {
  /// The non-throwing `NIOAsyncSequenceProducer`, its consumer cancelled at any point while
  /// one element comes: `didTerminate()` "is guaranteed to be called _exactly_ once"
  /// (NIOAsyncSequenceProducer.swift:78). A consumer cancelled before its first `next()`
  /// ends, and it is never called (NIOThrowingAsyncSequenceProducer.swift:1143–1166).
  package static let producerCancelledBeforeItsFirstNext = PeerFailure(
    name: "a producer whose consumer is cancelled before its first next() never terminates",
    package: "swift-nio 2.101", isCostly: false
  ) { exploration in
    let log = DelegateLog()
    let made = NIOAsyncSequenceProducer.makeSequence(
      elementType: Int.self,
      backPressureStrategy: NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark(
        lowWatermark: 1, highWatermark: 2),
      finishOnDeinit: true, delegate: log)
    let source = made.source
    let consumer = Task { [sequence = made.sequence] in
      var received: [Int] = []
      for await element in sequence { received.append(element) }
      return received
    }
    exploration.action("cancel the consumer") { consumer.cancel() }
    let producer = Task {
      _ = source.yield(1)
      source.finish()
    }
    await producer.value
    _ = await consumer.value
    exploration.atEnd("one termination") { log.terminations == 1 }
  }
}
