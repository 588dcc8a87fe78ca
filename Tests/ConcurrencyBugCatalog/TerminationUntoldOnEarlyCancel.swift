// From the field: swift-nio 2.101's `NIOAsyncSequenceProducer`, found by this explorer and
// shown again on the real runtime (docs/peer-code.md): a consumer whose task was cancelled
// before its first `next()` ended, and the producer's delegate, promised its `didTerminate()`
// exactly once, never heard of it: the early cancellation moved the state straight to its
// end. Shrunk and retold with a state behind a lock, a continuation and a cancellation
// handler.

import LockSupport
import TaskProvidingTesting

/// A producer's side that counts the terminations its delegate was told of.
final class TerminationLog: Sendable {
  private let count = Locked(0)
  var terminations: Int { count.withLock { $0 } }
  func didTerminate() { count.withLock { $0 += 1 } }
}

/// A sequence a producer feeds and one consumer takes from; it tells `log` once it ends.
/// Flawed: a cancellation before the first `next()` ends it without telling.
final class ProducedSequence: Sendable {
  private enum State {
    case initial
    case waiting(CheckedContinuation<Int?, Never>)
    case streaming
    case finished
  }

  private let state = Locked(State.initial)
  private let log: TerminationLog
  /// Whether an early cancellation tells the log (the fix).
  private let tellsEarlyCancellation: Bool

  init(log: TerminationLog, tellsEarlyCancellation: Bool) {
    self.log = log
    self.tellsEarlyCancellation = tellsEarlyCancellation
  }

  func next() async -> Int? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ended = state.withLock { state in
          switch state {
          case .finished: return true
          default:
            state = .waiting(continuation)
            return false
          }
        }
        if ended { continuation.resume(returning: nil) }
      }
    } onCancel: {
      let (waiting, tells) = state.withLock { state -> (CheckedContinuation<Int?, Never>?, Bool) in
        switch state {
        case .initial:
          state = .finished
          return (nil, tellsEarlyCancellation)
        case .waiting(let continuation):
          state = .finished
          return (continuation, true)
        case .streaming:
          state = .finished
          return (nil, true)
        case .finished:
          return (nil, false)
        }
      }
      waiting?.resume(returning: nil)
      if tells { log.didTerminate() }
    }
  }

  /// The producer's end: a waiting consumer gets `nil`, and the log is told.
  func finish() {
    let (waiting, tells) = state.withLock { state -> (CheckedContinuation<Int?, Never>?, Bool) in
      switch state {
      case .finished: return (nil, false)
      case .waiting(let continuation):
        state = .finished
        return (continuation, true)
      case .initial, .streaming:
        state = .finished
        return (nil, true)
      }
    }
    waiting?.resume(returning: nil)
    if tells { log.didTerminate() }
  }
}

extension CatalogEntry {
  static let terminationUntoldOnEarlyCancel = CatalogEntry(
    name: "a cancellation before the first next() never told to the producer (swift-nio)",
    summary: "the consumer ends, and the delegate promised one termination hears of none",
    bug: { exploration in
      try await cancelBeforeTheFirstNext(exploration, tellsEarlyCancellation: false)
    },
    fixed: { exploration in
      try await cancelBeforeTheFirstNext(exploration, tellsEarlyCancellation: true)
    })

  @MainActor
  private static func cancelBeforeTheFirstNext(
    _ exploration: Exploration, tellsEarlyCancellation: Bool
  ) async throws {
    let log = TerminationLog()
    let sequence = ProducedSequence(log: log, tellsEarlyCancellation: tellsEarlyCancellation)
    let consumer = Task.detached(name: "consumer") { await sequence.next() }
    let canceller = Task.detached(name: "cancel") { consumer.cancel() }
    await canceller.value
    _ = await consumer.value
    sequence.finish()
    exploration.atEnd("the producer was told of the end once") { log.terminations == 1 }
  }
}
