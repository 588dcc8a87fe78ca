import LockSupport

/// A clock whose time moves only when a test moves it, and whose sleeps end inside
/// ``advance(by:)`` itself, before it returns.
///
/// Unlike swift-clocks' `TestClock`, it never yields to the runtime in the hope that the code
/// under test reaches its sleep meanwhile: on a busy machine such yields wait behind every
/// other test's work, and the test's own timeouts run out while the clock is still
/// yielding. Here a sleep whose deadline has already passed returns at once. So code that
/// fixes its deadline before it sleeps (the render loop's spinner, the fallback's back-off)
/// wakes whichever comes first, the sleep or the advance, and a test then waits on what the
/// code shows (a frame, an answer) rather than on time.
package final class ManualClock: Clock, Sendable {
  /// A point on the clock: how far it has moved since it was made.
  package struct Instant: InstantProtocol, Hashable, Sendable {
    /// Time since the clock was made.
    package var offset: Duration

    package func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    package func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var nextID = 0
  }

  private let state = Locked(State())

  /// A clock at zero, with nobody asleep.
  package init() {}

  package var now: Instant { state.withLock { $0.now } }

  package var minimumResolution: Duration { .zero }

  /// Sleeps until the clock has been moved to `deadline` or past it; returns at once if it
  /// already has. Throws `CancellationError` when the task is cancelled first.
  package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // Under the lock, so a cancellation either sees this sleeper to end or is seen here.
        let now: Result<Void, any Error>? = state.withLock { state in
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let now { continuation.resume(with: now) }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock by `duration` and ends every sleep whose deadline it reaches, earliest
  /// first. A negative duration does not move it.
  package func advance(by duration: Duration) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: max(duration, .zero))
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// How many sleeps are under way: begun, and neither ended nor cancelled.
  package var sleepers: Int { state.withLock { $0.sleepers.count } }
}
