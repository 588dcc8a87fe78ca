import AsyncAlgorithms
import NIOCore
import PeerScenarios
import Testing

/// The findings of the explorer in peer code, shown again on the real runtime, with no
/// explorer: real threads, the cooperative pool, and an order the runtime really produces,
/// synchronized on what the code exposes. Each test states the finding as it is today, so it
/// fails once the library fixes it (docs/peer-code.md).
@Suite struct RealRuntimeTests {
  static let runs = 1_000

  /// `flatMapLatest` in 1.1.4: a consumer cancelled while it waits in `next()` returns, but
  /// the inner sequence's iteration is never cancelled: "Cancelling iteration cancels both the
  /// base and current inner sequence" (Guides/FlatMapLatest.md:82) does not hold.
  /// `FlatMapLatestStateMachine.cancelled()` (line 515) returns only the resumption of the
  /// waiting consumer, and drops the `.cancelTasks` it built.
  ///
  /// The inner sequence's `next()` runs only on the consumer's demand, so once it waits the
  /// consumer waits too; a cancellation that cancelled the inner task would run the inner
  /// sequence's cancellation handler before `cancel()` returns.
  @Test func aCancelledFlatMapLatestConsumerLeavesItsInnerIterationRunning() async {
    var leftRunning = 0
    for _ in 0..<Self.runs {
      let probe = CancellationProbe()
      let (numbers, feed) = AsyncStream.makeStream(of: Int.self)
      feed.yield(1)
      let consumer = Task {
        for await _ in numbers.flatMapLatest({ _ in WaitsForCancellation(probe: probe) }) {}
      }
      await probe.untilWaiting()
      consumer.cancel()
      await consumer.value
      if !probe.wasCancelled { leftRunning += 1 }
      // Nothing of the run is left waiting: the inner task ends, and the base's stream.
      probe.letGo()
      feed.finish()
    }
    #expect(leftRunning == Self.runs)
  }

  /// `NIOAsyncSequenceProducer` in swift-nio 2.101: a consumer whose task is cancelled before
  /// its first `next()`, while nothing has been yielded, ends, and the delegate never hears
  /// of it: "This is guaranteed to be called _exactly_ once" (NIOAsyncSequenceProducer.swift:78)
  /// does not hold. `cancelled()` in the `.initial` state (NIOThrowingAsyncSequenceProducer
  /// .swift:1145) moves the non-throwing variant straight to `.finished` and returns `.none`,
  /// and nothing later calls `didTerminate()`: not the iterator's deinit, not `finish()`.
  ///
  /// The task cancels itself before it iterates, so the order is the same in every run.
  @Test func aProducerWhoseConsumerWasCancelledEarlyNeverTerminates() async {
    var neverTerminated = 0
    for _ in 0..<Self.runs {
      let log = DelegateLog()
      let made = NIOAsyncSequenceProducer.makeSequence(
        elementType: Int.self,
        backPressureStrategy: PeerCodeTests.Watermark(lowWatermark: 1, highWatermark: 2),
        finishOnDeinit: true, delegate: log)
      let source = made.source
      let consumer = Task { [sequence = made.sequence] in
        withUnsafeCurrentTask { $0?.cancel() }
        for await _ in sequence {}
      }
      await consumer.value
      _ = source.yield(1)
      source.finish()
      if log.terminations == 0 { neverTerminated += 1 }
    }
    #expect(neverTerminated == Self.runs)
  }

  /// The throwing variant, the same way: its delegate hears of the termination once.
  @Test func aThrowingProducerWhoseConsumerWasCancelledEarlyTerminatesOnce() async {
    let log = DelegateLog()
    let made = NIOThrowingAsyncSequenceProducer.makeSequence(
      elementType: Int.self, failureType: (any Error).self,
      backPressureStrategy: PeerCodeTests.Watermark(lowWatermark: 1, highWatermark: 2),
      finishOnDeinit: true, delegate: log)
    let source = made.source
    let consumer = Task { [sequence = made.sequence] in
      withUnsafeCurrentTask { $0?.cancel() }
      for try await _ in sequence {}
    }
    _ = await consumer.result
    source.finish()
    #expect(log.terminations == 1)
  }

  /// The probe above sees a cancellation where there is one: a task iterating the inner
  /// sequence itself, cancelled while it waits.
  @Test func theProbeSeesTheCancellationOfTheTaskIteratingIt() async {
    let probe = CancellationProbe()
    let iterating = Task {
      for await _ in WaitsForCancellation(probe: probe) {}
    }
    await probe.untilWaiting()
    iterating.cancel()
    await iterating.value
    #expect(probe.wasCancelled)
  }
}
