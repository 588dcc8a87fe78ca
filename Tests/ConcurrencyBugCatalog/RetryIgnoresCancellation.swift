// A retry with exponential back-off that keeps going once cancelled: the back-off sleep is
// `try?`'d and the loop never checks for cancellation, so a cancelled caller's retries go on
// hitting the server. Written with a task's plain sleep, on the scope's virtual time.

import LockSupport
import TaskProviding
import TaskProvidingTesting

/// A server that fails the first attempts and counts the calls made after its client was
/// cancelled.
actor FlakyServer {
  private var attempts = 0
  /// Set, with no suspension, in the same step that cancels the client.
  nonisolated let cancelled = Locked(false)
  private(set) var callsAfterCancel = 0

  func call() throws -> String {
    if cancelled.withLock({ $0 }) { callsAfterCancel += 1 }
    attempts += 1
    guard attempts > 3 else { throw ServerBusy() }
    return "fact"
  }
}

struct ServerBusy: Error {}

enum Retrier {
  /// Calls the server until it answers, backing off 1, 2, 4 … seconds. With
  /// `stopsWhenCancelled` (the fix) a cancelled back-off ends the loop, and so does a
  /// cancellation seen before a call.
  static func fetch(_ server: FlakyServer, stopsWhenCancelled: Bool) async -> String? {
    for attempt in 0..<6 {
      if stopsWhenCancelled, Task.isCancelled { return nil }
      if let answer = try? await server.call() { return answer }
      let backoff = Duration.seconds(1 << attempt)
      if stopsWhenCancelled {
        do { try await Task.sleep(for: backoff) } catch { return nil }  // virtual time
      } else {
        try? await Task.sleep(for: backoff)  // virtual time
      }
    }
    return nil
  }
}

extension CatalogEntry {
  static let retryIgnoresCancellation = CatalogEntry(
    name: "a retry with back-off that ignores cancellation",
    summary: "the cancelled caller's back-off ends early and its retries go on",
    bug: { exploration in try await cancelRetries(exploration, stopsWhenCancelled: false) },
    fixed: { exploration in try await cancelRetries(exploration, stopsWhenCancelled: true) })

  @MainActor
  private static func cancelRetries(_ exploration: Exploration, stopsWhenCancelled: Bool)
    async throws
  {
    let server = FlakyServer()
    let fetch = Task.detached(name: "fetch with retries") {
      await Retrier.fetch(server, stopsWhenCancelled: stopsWhenCancelled)
    }
    Task.detached(name: "leave the screen") {
      server.cancelled.withLock { $0 = true }
      fetch.cancel()
    }
    _ = await fetch.value
    let after = await server.callsAfterCancel
    // A call already on its way when the cancellation came may still land: one at most.
    exploration.atEnd("at most one call reaches the server once cancelled") { after <= 1 }
  }
}
