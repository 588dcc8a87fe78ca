// From the field: swift-async-algorithms' channel hung when a consumer was cancelled before
// its `next()` registered (https://github.com/apple/swift-async-algorithms/pull/80): the
// cancellation handler ran first, found nobody to wake, and the registration that followed
// waited for ever. Shrunk and retold with a continuation and a cancellation handler.

import LockSupport
import TaskProviding
import TaskProvidingTesting

/// A mailbox one consumer waits on for the next letter. Flawed: a cancellation that comes
/// before the consumer has registered is forgotten.
final class Mailbox: Sendable {
  private struct State {
    var waiter: CheckedContinuation<String?, Never>?
    var cancelledEarly = false
  }

  private let state = Locked(State())
  /// Whether a cancellation before registration is remembered (the fix).
  private let remembersCancellation: Bool

  init(remembersCancellation: Bool) { self.remembersCancellation = remembersCancellation }

  func next() async -> String? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelled = state.withLock { state -> Bool in
          if state.cancelledEarly { return true }
          state.waiter = continuation
          return false
        }
        if cancelled { continuation.resume(returning: nil) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
        guard let waiter = state.waiter else {
          if remembersCancellation { state.cancelledEarly = true }
          return nil
        }
        state.waiter = nil
        return waiter
      }
      waiter?.resume(returning: nil)
    }
  }
}

extension CatalogEntry {
  static let cancelBeforeRegistration = CatalogEntry(
    name: "a cancellation before the waiter registers (swift-async-algorithms)",
    summary: "the consumer is cancelled before it registers and then waits for ever",
    bug: { exploration in
      try await cancelAWaitingConsumer(exploration, Mailbox(remembersCancellation: false))
    },
    fixed: { exploration in
      try await cancelAWaitingConsumer(exploration, Mailbox(remembersCancellation: true))
    })

  @MainActor
  private static func cancelAWaitingConsumer(
    _ exploration: Exploration, _ mailbox: Mailbox
  ) async throws {
    let consumer = Task.detached(name: "consumer") { await mailbox.next() }
    let canceller = Task.detached(name: "cancel") { consumer.cancel() }
    await canceller.value
    let letter = await consumer.value
    exploration.atEnd("the cancelled consumer returns nothing") { letter == nil }
  }
}
