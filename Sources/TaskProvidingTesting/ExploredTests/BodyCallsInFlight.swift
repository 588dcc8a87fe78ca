import LockSupport

/// The calls of a test's body that schedules started and that have not returned yet.
///
/// The trait hands the explorer a body that Swift Testing lent it for the test's duration
/// only: the test cannot end while a call of it is still under way. A schedule the search cut
/// short, or one stuck on work outside its scope, leaves its call to go on in real time once
/// its scope closes; the trait waits for those before the test ends.
final class BodyCallsInFlight: Sendable {
  private struct State {
    var running = 0
    var waiter: CheckedContinuation<Bool, Never>?
  }

  private let state = Locked(State())

  /// A call began.
  func begin() {
    state.withLock { $0.running += 1 }
  }

  /// A call returned.
  func end() {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      state.running -= 1
      guard state.running == 0 else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: true)
  }

  /// How many calls are under way.
  var running: Int { state.withLock { $0.running } }

  /// Waits until every call has returned, or `timeout` has passed; returns whether they all did.
  func waitUntilNoneRun(within timeout: Duration) async -> Bool {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state -> Bool in
        guard state.running > 0 else { return true }
        state.waiter = continuation
        return false
      }
      if done { return continuation.resume(returning: true) }
      let nanoseconds = timeout.components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
      runLater(afterNanoseconds: nanoseconds.overflow ? .max : Int(nanoseconds.partialValue)) {
        [state] in
        let late = state.withLock { state -> CheckedContinuation<Bool, Never>? in
          defer { state.waiter = nil }
          return state.waiter
        }
        late?.resume(returning: false)
      }
    }
  }
}
