import LockSupport
import TaskProviding

/// Watches the jobs a scheduler or an exploration runs, from a thread of its own, and ends
/// the test process with a report when one does not return within a timeout.
///
/// A job runs on the thread that drives the scope, which holds the main actor: a job that
/// never returns (it blocks on a lock another of the scope's jobs holds, it waits for the
/// main queue) blocks the test, and its `.timeLimit` or the scheduler's `timeout` with it,
/// until the CI system kills the run with no word of why. The watchdog says why instead:
/// which call it was, the job's task and where it resumed, and for an exploration the
/// strategy and the schedule's replay string so far. The stuck thread cannot be unwound or
/// abandoned, and the test cannot end while it holds the main actor, so the report ends the
/// process (`fatalError`): the run fails within the timeout. An exploration in a child process
/// (``ExplorationProcess``) ends only the child: the test process reports it as the test's
/// issue, and the run goes on.
///
/// One timer serves every watchdog open at once, and it stops one poll after the last closes:
/// a process that runs no scope pays nothing, and opening one costs a lock, not a timer.
final class JobWatchdog: Sendable {
  /// How long one job of an exploration may run before the run is ended, scaled by
  /// `TASK_PROVIDING_TIMEOUT_SCALE`.
  static let timeout = Duration.seconds(20)

  private struct State {
    /// The job running now, and the decisions of its schedule before it; `nil` between jobs.
    var running: (job: ReadyJob, trail: [ScheduleRun.Taken])?
    /// How many jobs have begun: the poller tells a job that has run for a while from a run
    /// of short ones by it, so a job's begin reads no clock.
    var begun: UInt64 = 0
    /// The job the poller last saw running, by its count, and when it first saw it.
    var sighting: (job: UInt64, at: ContinuousClock.Instant)?
    var stopped = false
  }

  private let state = Locked(State())
  /// Who hears of a job that never returned before the process ends: a child exploring for
  /// the test process tells it so.
  private static let beforeEnding = Locked<(@Sendable (String) -> Void)?>(nil)
  private let timeout: Duration
  /// What the report says of the whole run: "an exploration (…)", "withSerialScheduler at …";
  /// formatted only for a report.
  private let scope: @Sendable () -> String
  /// How the report names a job, given its schedule's decisions before it.
  private let describe: @Sendable (ReadyJob, [ScheduleRun.Taken]) -> String

  /// A watchdog of the scope `scope` names, until ``stop()``; `describe` names a stuck job.
  init(
    timeout: Duration, scope: @escaping @Sendable () -> String,
    describe: @escaping @Sendable (ReadyJob, [ScheduleRun.Taken]) -> String = { job, _ in
      JobWatchdog.describe(job)
    }
  ) {
    self.timeout = timeout
    self.scope = scope
    self.describe = describe
    Self.poller.add(self)
  }

  /// `job` begins, after the decisions `trail` of its schedule. A lock and nothing else: it
  /// runs for every job.
  func begin(_ job: ReadyJob, after trail: [ScheduleRun.Taken] = []) {
    state.withLock { state in
      state.running = (job, trail)
      state.begun &+= 1
    }
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

  /// Ends the process if the job running now was running when the poller first saw it at
  /// least the timeout ago: it has run at least that long.
  fileprivate func check(now: ContinuousClock.Instant) {
    let stuck = state.withLock { state -> (job: ReadyJob, trail: [ScheduleRun.Taken])? in
      guard let running = state.running else {
        state.sighting = nil
        return nil
      }
      guard let sighting = state.sighting, sighting.job == state.begun else {
        state.sighting = (state.begun, now)
        return nil
      }
      return now - sighting.at >= timeout ? running : nil
    }
    guard let stuck else { return }
    // Stopped at a breakpoint, a job runs for as long as the person reads it.
    if DebuggerPresence.isAttached {
      DebuggerPresence.noteHeldBound()
      state.withLock { $0.sighting = ($0.begun, now) }
      return
    }
    let account =
      "A job of \(scope()) did not return within \(TimeoutScale.describe(timeout)): "
      + describe(stuck.job, stuck.trail)
    Self.beforeEnding.withLock { $0 }?(account)
    fatalError(
      account + ". The thread that drives it is stuck in that job, holding the main actor;"
        + " the test cannot end, so the test run ends here.")
  }

  /// From now on, `tell` hears the account of a job that never returned, before the watchdog
  /// ends the process.
  static func tellBeforeEnding(_ tell: @escaping @Sendable (String) -> Void) {
    beforeEnding.withLock { $0 = tell }
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
  ///
  /// Opening and closing a watchdog only marks it, and arms the timer only when no poll is
  /// pending: a test that runs the scheduler thousands of times would otherwise wake the
  /// timer's thread twice a run. A poll that finds none open arms no next one, so the timer
  /// is idle from the poll after the last close.
  private final class Poller: Sendable {
    private struct Watches {
      var open: [ObjectIdentifier: JobWatchdog] = [:]
      /// Whether a poll is pending: the timer is armed for it.
      var isArmed = false
    }

    private let watches = Locked(Watches())
    // Armed and disarmed only under `watches`' lock.
    private let timer = DeadlineTimer(label: "TaskProvidingTesting.watchdog")
    private static let period: UInt64 = 100_000_000

    init() {
      timer.start { [watches, timer] in
        let open = watches.withLock { watches in
          // The next poll, armed before this one checks, while any watchdog is open.
          watches.isArmed = !watches.open.isEmpty
          if watches.isArmed { timer.arm(at: DeadlineTimer.now + Poller.period) }
          return Array(watches.open.values)
        }
        let now = ContinuousClock.now
        for watchdog in open { watchdog.check(now: now) }
      }
    }

    func add(_ watchdog: JobWatchdog) {
      watches.withLock { watches in
        watches.open[ObjectIdentifier(watchdog)] = watchdog
        if !watches.isArmed {
          watches.isArmed = true
          timer.arm(at: DeadlineTimer.now + Self.period)
        }
      }
    }

    func remove(_ watchdog: JobWatchdog) {
      watches.withLock { $0.open[ObjectIdentifier(watchdog)] = nil }
    }
  }
}
