import Dispatch
import TaskProviding

/// Watches the jobs an exploration runs, from a thread of its own, and ends the test process
/// with a report when one does not return within a failure bound.
///
/// A job runs on the thread that drives the exploration, which holds the main actor: a job
/// that never returns (it blocks on a lock another of the scope's jobs holds, it waits for
/// the main queue) blocks the test, and its `.timeLimit` with it, until the CI system kills
/// the run with no word of why. The watchdog says why instead: the strategy, the schedule and
/// its replay string so far, and the task the job runs with where it resumed. The stuck
/// thread cannot be unwound or abandoned, and the test cannot end while it holds the main
/// actor, so the report ends the process (`fatalError`): the run fails within the bound.
final class JobWatchdog: Sendable {
  /// How long one job may run before the run is ended, scaled by
  /// `TASK_PROVIDING_TIMEOUT_SCALE`.
  static let bound = Duration.seconds(20)

  private struct State {
    /// The job running now: when it began and how to describe it; `nil` between jobs.
    var running: (began: ContinuousClock.Instant, describe: @Sendable () -> String)?
    /// The number of jobs begun, so a poll tells a new job from one still running.
    var begun = 0
  }

  private let state = Locked(State())
  // Dispatch sources are safe to cancel from any thread; the type is not marked Sendable.
  private nonisolated(unsafe) let timer: any DispatchSourceTimer
  private let bound: Duration

  /// A watchdog that polls ten times per `bound`, until ``stop()``.
  init(bound: Duration) {
    self.bound = bound
    let timer = DispatchSource.makeTimerSource(queue: .global())
    self.timer = timer
    let interval = max(bound / 10, .milliseconds(10))
    timer.schedule(
      deadline: .now() + .nanoseconds(interval.dispatchNanoseconds),
      repeating: .nanoseconds(interval.dispatchNanoseconds), leeway: .milliseconds(100))
    timer.setEventHandler { [state, bound] in
      let stuck = state.withLock { state -> (@Sendable () -> String)? in
        guard let running = state.running, ContinuousClock.now - running.began >= bound else {
          return nil
        }
        return running.describe
      }
      guard let stuck else { return }
      fatalError(
        "A job of an exploration did not return within \(FailureBoundScale.describe(bound)): "
          + stuck() + ". The thread that drives the exploration is stuck in it, holding the"
          + " main actor; the test cannot end, so the test run ends here.")
    }
    timer.resume()
  }

  /// A job begins; `describe` says which, if it never ends.
  func begin(_ describe: @escaping @Sendable () -> String) {
    state.withLock { state in
      state.running = (.now, describe)
      state.begun += 1
    }
  }

  /// The job begun last has returned.
  func end() {
    state.withLock { $0.running = nil }
  }

  func stop() {
    timer.cancel()
  }
}
