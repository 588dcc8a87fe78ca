// From the field: swift-async-algorithms 1.1.4's `flatMapLatest`, found by this explorer and
// shown again on the real runtime (docs/peer-code.md): a consumer cancelled while it waited
// for an element was resumed, but the order to cancel the task that feeds it was dropped on
// that path, so the feeding task and its upstream iterator waited for ever. Reduced and
// retold with a feeding task, two continuations and a cancellation handler.

import LockSupport
import TaskProvidingTesting

/// An upstream that waits for an element until the task asking is cancelled, as a request
/// or a socket does; it records that cancellation.
final class Upstream: Sendable {
  private struct State {
    var waiting: CheckedContinuation<Void, Never>?
    var wasCancelled = false
  }

  private let state = Locked(State())

  /// Whether the task waiting on it was cancelled.
  var wasCancelled: Bool { state.withLock { $0.wasCancelled } }

  func next() async -> Int? {
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
/// on the first demand. Flawed: a cancellation that finds the consumer waiting resumes it,
/// and forgets to cancel the feeding task.
final class Relay: Sendable {
  private struct State {
    var consumer: CheckedContinuation<Int?, Never>?
    var feeder: Task<Void, Never>?
    var isCancelled = false
  }

  private let state = Locked(State())
  private let upstream: Upstream
  /// Whether a cancellation cancels the feeding task whatever the consumer does (the fix).
  private let alwaysCancelsFeeder: Bool

  /// Whether the feeding task was started.
  var startedFeeding: Bool { state.withLock { $0.feeder != nil } }

  init(upstream: Upstream, alwaysCancelsFeeder: Bool) {
    self.upstream = upstream
    self.alwaysCancelsFeeder = alwaysCancelsFeeder
  }

  func next() async -> Int? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelled = state.withLock { state in
          guard !state.isCancelled else { return true }
          state.consumer = continuation
          if state.feeder == nil {
            state.feeder = Task(name: "feeder") { [upstream] in
              let element = await upstream.next()
              self.deliver(element)
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
        guard alwaysCancelsFeeder else { return }
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
      try await cancelTheConsumer(exploration, alwaysCancelsFeeder: false)
    },
    fixed: { exploration in
      try await cancelTheConsumer(exploration, alwaysCancelsFeeder: true)
    })

  @MainActor
  private static func cancelTheConsumer(
    _ exploration: Exploration, alwaysCancelsFeeder: Bool
  ) async throws {
    let upstream = Upstream()
    let relay = Relay(upstream: upstream, alwaysCancelsFeeder: alwaysCancelsFeeder)
    let consumer = Task.detached(name: "consumer") { await relay.next() }
    let canceller = Task.detached(name: "cancel") { consumer.cancel() }
    await canceller.value
    let element = await consumer.value
    exploration.atEnd("the cancelled consumer got nothing, and its feeder was cancelled") {
      element == nil && (!relay.startedFeeding || upstream.wasCancelled)
    }
  }
}
