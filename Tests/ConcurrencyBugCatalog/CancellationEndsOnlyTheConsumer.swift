// From the field: swift-async-algorithms 1.1.4's `flatMapLatest` and `debounce`, found by this
// explorer and shown again on the real runtime (docs/peer-code.md): a consumer cancelled while
// it waited for an element (flatMapLatest), or between two `next()` calls (debounce), ended,
// but the order to cancel the task that feeds it was dropped on that path, so the feeding
// task and its upstream iterator waited for ever. Shrunk and retold with a feeding task, two
// continuations and a cancellation handler.

import LockSupport
import TaskProvidingTesting

/// An upstream that gives `first`, if any, then waits for an element until the task asking
/// is cancelled, as a request or a socket does; it records that cancellation.
final class Upstream: Sendable {
  private struct State {
    var waiting: CheckedContinuation<Void, Never>?
    var wasCancelled = false
    var first: Int?
  }

  private let state: Locked<State>

  init(first: Int? = nil) { state = Locked(State(first: first)) }

  /// Whether the task waiting on it was cancelled.
  var wasCancelled: Bool { state.withLock { $0.wasCancelled } }

  func next() async -> Int? {
    let first = state.withLock { state in
      defer { state.first = nil }
      return state.first
    }
    if let first { return first }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelled = state.withLock { state in
          if !state.wasCancelled { state.waiting = continuation }
          return state.wasCancelled
        }
        if cancelled { continuation.resume() }
      }
    } onCancel: {
      let waiting = state.withLock { state in
        state.wasCancelled = true
        defer { state.waiting = nil }
        return state.waiting
      }
      waiting?.resume()
    }
    return nil
  }
}

/// Hands a consumer what a feeding task of its own takes from `upstream`, the task started
/// on the first demand. Flawed as `flaw` says: a cancellation on one path forgets to cancel
/// the feeding task.
final class Relay: Sendable {
  /// Where a cancellation forgets the feeding task.
  enum Flaw: Sendable {
    /// Nowhere: the fix.
    case none
    /// When it finds the consumer waiting, which it resumes (flatMapLatest).
    case whileConsumerWaits
    /// When it finds no consumer waiting: the consumer was cancelled between two calls
    /// (debounce).
    case betweenCalls
  }

  private struct State {
    var consumer: CheckedContinuation<Int?, Never>?
    var feeder: Task<Void, Never>?
    var isCancelled = false
  }

  private let state = Locked(State())
  private let upstream: Upstream
  private let flaw: Flaw

  /// Whether the feeding task was started.
  var startedFeeding: Bool { state.withLock { $0.feeder != nil } }

  init(upstream: Upstream, flaw: Flaw) {
    self.upstream = upstream
    self.flaw = flaw
  }

  func next() async -> Int? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelled = state.withLock { state in
          guard !state.isCancelled else { return true }
          state.consumer = continuation
          if state.feeder == nil {
            state.feeder = Task(name: "feeder") { [upstream] in
              while let element = await upstream.next() { self.deliver(element) }
              self.deliver(nil)
            }
          }
          return false
        }
        if cancelled { continuation.resume(returning: nil) }
      }
    } onCancel: {
      let (consumer, feeder) = state.withLock { state in
        state.isCancelled = true
        defer { state.consumer = nil }
        return (state.consumer, state.feeder)
      }
      if let consumer {
        consumer.resume(returning: nil)
        guard flaw != .whileConsumerWaits else { return }
      } else if flaw == .betweenCalls {
        return
      }
      feeder?.cancel()
    }
  }

  private func deliver(_ element: Int?) {
    let consumer = state.withLock { state in
      defer { state.consumer = nil }
      return state.consumer
    }
    consumer?.resume(returning: element)
  }
}

extension CatalogEntry {
  static let cancellationEndsOnlyTheConsumer = CatalogEntry(
    name: "a cancellation that ends the consumer but not its feeding task (swift-async-algorithms)",
    summary: "the cancelled consumer returns, and the task feeding it waits for ever",
    bug: { exploration in
      try await cancelTheConsumer(exploration, flaw: .whileConsumerWaits)
    },
    fixed: { exploration in
      try await cancelTheConsumer(exploration, flaw: .none)
    })

  static let cancellationBetweenCallsForgetsTheFeeder = CatalogEntry(
    name:
      "a cancellation between two next() calls that forgets the feeding task (swift-async-algorithms)",
    summary: "the consumer's second call returns nothing, and the task feeding it waits for ever",
    bug: { exploration in
      try await cancelBetweenTwoCalls(exploration, flaw: .betweenCalls)
    },
    fixed: { exploration in
      try await cancelBetweenTwoCalls(exploration, flaw: .none)
    })

  @MainActor
  private static func cancelBetweenTwoCalls(
    _ exploration: Exploration, flaw: Relay.Flaw
  ) async throws {
    let upstream = Upstream(first: 1)
    let relay = Relay(upstream: upstream, flaw: flaw)
    let consumer = Task.detached(name: "consumer") {
      let first = await relay.next()
      withUnsafeCurrentTask { $0?.cancel() }
      let second = await relay.next()
      return (first, second)
    }
    let (first, second) = await consumer.value
    exploration.atEnd("1, then nothing, and the feeder was cancelled") {
      first == 1 && second == nil && upstream.wasCancelled
    }
  }

  @MainActor
  private static func cancelTheConsumer(
    _ exploration: Exploration, flaw: Relay.Flaw
  ) async throws {
    let upstream = Upstream()
    let relay = Relay(upstream: upstream, flaw: flaw)
    let consumer = Task.detached(name: "consumer") { await relay.next() }
    let canceller = Task.detached(name: "cancel") { consumer.cancel() }
    await canceller.value
    let element = await consumer.value
    exploration.atEnd("the cancelled consumer got nothing, and its feeder was cancelled") {
      element == nil && (!relay.startedFeeding || upstream.wasCancelled)
    }
  }
}
