import Dispatch
import LockSupport
import TaskProviding

/// Watches the jobs a scheduler or an exploration runs, from a thread of its own, and ends
/// the test process with a report when one does not return within a failure bound.
///
/// A job runs on the thread that drives the scope, which holds the main actor: a job that
/// never returns (it blocks on a lock another of the scope's jobs holds, it waits for the
/// main queue) blocks the test, and its `.timeLimit` or the scheduler's `timeout` with it,
/// until the CI system kills the run with no word of why. The watchdog says why instead:
/// which call it was, the job's task and where it resumed, and for an exploration the
/// strategy and the schedule's replay string so far. The stuck thread cannot be unwound or
/// abandoned, and the test cannot end while it holds the main actor, so the report ends the
/// process (`fatalError`): the run fails within the bound. An exploration in a child process
/// (``ExplorationProcess``) ends only the child: the test process reports it as the test's
/// issue, and the run goes on.
///
/// One timer serves every watchdog open at once, and it is suspended while none is: a process
/// that runs no scope pays nothing, and opening one costs a lock, not a timer.
final class JobWatchdog: Sendable {
  /// How long one job of an exploration may run before the run is ended, scaled by
  /// `TASK_PROVIDING_TIMEOUT_SCALE`.
  static let bound = Duration.seconds(20)

  private struct State {
    /// The job running now: when it began and how to describe it; `nil` between jobs.
    var running: (began: ContinuousClock.Instant, describe: @Sendable () -> String)?
    var stopped = false
  }

  private let state = Locked(State())
  private let bound: Duration
  /// What the report says of the whole run: "an exploration (…)", "withSerialScheduler at …".
  private let scope: String

  /// A watchdog of the scope `scope` names, until ``stop()``.
  init(bound: Duration, scope: String) {
    self.bound = bound
    self.scope = scope
    Self.poller.add(self)
  }

  /// A job begins; `describe` says which, if it never ends.
  func begin(_ describe: @escaping @Sendable () -> String) {
    state.withLock { $0.running = (.now, describe) }
  }

  /// The job begun last has returned.
  func end() {
    state.withLock { $0.running = nil }
  }

  func stop() {
    let first = state.withLock { state in
      defer { state.stopped = true }
      return !state.stopped
    }
    if first { Self.poller.remove(self) }
  }

  /// Ends the process if the running job has run past the bound.
  fileprivate func check(now: ContinuousClock.Instant) {
    let stuck = state.withLock { state -> (@Sendable () -> String)? in
      guard let running = state.running, now - running.began >= bound else { return nil }
      return running.describe
    }
    guard let stuck else { return }
    fatalError(
      "A job of \(scope) did not return within \(FailureBoundScale.describe(bound)): "
        + stuck() + ". The thread that drives it is stuck in that job, holding the main"
        + " actor; the test cannot end, so the test run ends here.")
  }

  /// A job, as the report names it: the task it runs with and where that task resumed.
  static func describe(_ job: ReadyJob) -> String {
    guard let task = job.task else { return "an actor's turn" }
    var what = "a job of the task at 0x\(String(task.address, radix: 16))"
    let frames = ResumePoint.frames(ofTask: task.address)
    if let point = Symbolicator.shared.firstProgramSymbol(in: frames) {
      what += ", which resumed in \(point.function)" + (point.place.map { " at \($0)" } ?? "")
    }
    return what
  }

  private static let poller = Poller()

  /// The one timer, polling every open watchdog ten times a second while any is open.
  private final class Poller: Sendable {
    private struct Watches {
      var open: [ObjectIdentifier: JobWatchdog] = [:]
      var isRunning = false
    }

    private let watches = Locked(Watches())
    // Dispatch sources are safe to suspend and resume from any thread; the type is not
    // marked Sendable. Suspends and resumes pair up under `watches`' lock.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer

    init() {
      timer = DispatchSource.makeTimerSource(queue: .global())
      timer.schedule(
        deadline: .now() + .milliseconds(100), repeating: .milliseconds(100),
        leeway: .milliseconds(50))
      timer.setEventHandler { [watches] in
        let open = watches.withLock { Array($0.open.values) }
        let now = ContinuousClock.now
        for watchdog in open { watchdog.check(now: now) }
      }
    }

    func add(_ watchdog: JobWatchdog) {
      watches.withLock { watches in
        watches.open[ObjectIdentifier(watchdog)] = watchdog
        if !watches.isRunning {
          watches.isRunning = true
          timer.resume()
        }
      }
    }

    func remove(_ watchdog: JobWatchdog) {
      watches.withLock { watches in
        watches.open[ObjectIdentifier(watchdog)] = nil
        if watches.open.isEmpty, watches.isRunning {
          watches.isRunning = false
          timer.suspend()
        }
      }
    }
  }
}
