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

  /// `flatMapLatest` in 1.1.4: a consumer that leaves its loop with `break` leaves the base's
  /// iteration running. Nothing in `FlatMapLatestStorage` or its iterator runs when the
  /// consumer's iterator goes away (no `deinit` does), so the base's task is not cancelled: it
  /// waits in the base's `next()` until the base produces or ends, which a base that waits for
  /// its task's cancellation (a socket, a request) never does. `merge`, `zip` and `debounce`
  /// cancel their tasks then (`iteratorDeinitialized()`).
  ///
  /// The inner sequence produces its element only once the base's task waits inside the
  /// base's second `next()`, so the consumer breaks while it does, in every run. Cancelling
  /// that task when the iterator goes would run the base's cancellation handler before the
  /// consumer's task ends. Each run leaves the inner task parked for demand that never comes,
  /// the same defect, so this test runs a hundred times, not a thousand.
  @Test func aFlatMapLatestLoopLeftWithBreakLeavesItsBaseIterationRunning() async {
    let runs = 100
    var leftRunning = 0
    for _ in 0..<runs {
      let probe = CancellationProbe()
      let base = FirstThenWaitsForCancellation(first: 1, probe: probe)
      let consumer = Task {
        for await _ in base.flatMapLatest({ _ in OneOnceWaiting(probe: probe) }) { break }
      }
      await consumer.value
      if !probe.wasCancelled { leftRunning += 1 }
      // The base's task goes on, as nothing cancelled it: its `next()` returns `nil`.
      probe.letGo()
    }
    #expect(leftRunning == runs)
  }

  /// The control: a relay through a task whose `AsyncStream` cancels that task when the
  /// consumer's iterator goes away (`onTermination`), given the same base and a consumer that
  /// breaks while the base waits, ends the base's iteration before the consumer's task ends.
  @Test func aRelayThatCancelsWhenItsIteratorGoesEndsItsBaseIteration() async {
    var ended = 0
    for _ in 0..<Self.runs {
      let probe = CancellationProbe()
      let base = FirstThenWaitsForCancellation(first: 1, probe: probe)
      let consumer = Task {
        // Made here, so that the consumer's task holds the relay alone, as a loop over a
        // sequence made in place does.
        let relay = AsyncStream<Int> { continuation in
          let task = Task {
            for await element in base { continuation.yield(element) }
            continuation.finish()
          }
          continuation.onTermination = { _ in task.cancel() }
        }
        for await _ in relay {
          await probe.untilWaiting()
          break
        }
      }
      await consumer.value
      if probe.wasCancelled { ended += 1 }
    }
    #expect(ended == Self.runs)
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
