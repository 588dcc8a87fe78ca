// `SchedulingExecutor`, through which a sleep reaches the scope's virtual time, is SPI of the
// Swift 6.3 standard library; an older compiler builds the rest, and sleeps take real time.
#if compiler(>=6.3)
  @_spi(ExperimentalScheduling) import _Concurrency
#endif

/// The main actor's executor while a scope is open: the runtime asks the router's hook which
/// executor is the main actor's, and the hook answers with this one.
///
/// A scope's own main-actor jobs join its queue and run on the thread that drives it, which
/// holds the real main actor meanwhile. Anyone else's go to the runtime's main executor,
/// where they run once the driving thread gives the main actor back: main-actor work takes
/// turns, as it always does.
final class ScopeMainExecutor: SerialExecutor {
  static let shared = ScopeMainExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if let context = DriverContext.current, context.catchesMainActorJob {
      context.catchesMainActorJob = false
      context.caughtMainActorJob = job
      return
    }
    JobRouter.shared.keepGlobalHook()
    if case .foreign = JobRouter.shared.route(job, .mainActor) {
      JobRouter.forward(job, .mainActor)
    }
  }

  /// Main-actor code that runs outside the runtime's view of this executor is isolated iff it
  /// runs on a driving thread and not inside a pool job (that thread holds the real main
  /// actor, and runs every main-actor job of its scopes), or on the runtime's own main queue:
  /// a test beside the scope, `MainActor.assumeIsolated` in a main-queue handler, runs there
  /// while the scope's driver has given the main actor back.
  func checkIsolated() {
    guard JobRouter.shared.isMainActorThread() || runsOnMainQueue() else {
      // The runtime ends the process when this returns, so the message must say it all.
      let place =
        withUnsafeCurrentTask { $0 != nil }
        ? "in a task on the pool"
        : "on a thread with no task (a dispatch queue's, a callback's, a thread of its own)"
      fatalError(
        "Main-actor code ran \(place), off the main actor, while withSerialScheduler or"
          + " explore held it. Most often it is a closure formed in @MainActor code (a"
          + " @MainActor test, a view model) and called by a library on its own thread: a"
          + " callback, a completion handler, a delegate. Mark the closure @Sendable and hop"
          + " with `Task { @MainActor in … }`, or have the library call back on the main"
          + " actor. The backtrace, where the runtime prints one, names the closure.")
    }
  }
}

/// The task executor a scope's tasks prefer, and what its pool jobs run on.
///
/// Every task the scope's code creates prefers it (``TaskCreation``), so the runtime never
/// switches such a task from one executor to another inside a job: each hop onto an actor, off
/// an actor, onto or off the main actor is enqueued, here or on the actor, and becomes a job
/// of its own, a place where another of the scope's jobs may run first, as another thread of
/// the pool could run it. Work that stays on one executor stays in one job, as it does under
/// the runtime. A job enqueued here is routed like any other pool job: the scope's own join
/// its queue; once the scope has closed, a task that still prefers this executor has its jobs
/// handed to the global pool.
final class ScopePoolExecutor: TaskExecutor {
  static let shared = ScopePoolExecutor()

  /// The global pool as a task executor: what a task with no preference runs on, since the
  /// runtime takes it for "no preference" when it compares executors at a hop.
  static let globalPool = globalConcurrentExecutor.asUnownedTaskExecutor()

  /// This executor as an option record of task creation holds it.
  static let unowned = unsafeBitCast(shared.asUnownedTaskExecutor(), to: (UInt, UInt).self)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    JobRouter.shared.keepGlobalHook()
    if case .foreign = JobRouter.shared.route(job, .pool) {
      JobRouter.forward(job, .pool)
    }
  }

  /// A clock's duration in seconds: the system clocks' is `Duration` already.
  static func duration<D>(_ duration: D) -> Duration {
    (duration as? Duration) ?? .zero
  }
}

// A sleep of a task that prefers this executor (`Task.sleep`, a `ContinuousClock` or
// `SuspendingClock` sleep) comes here, where the runtime asks the task's executor to schedule
// the job that ends it, on runtimes that declare the protocol (Swift 6.3's; OS 26.4). An
// earlier runtime sleeps in real time and hands the job to the global enqueue when the sleep
// ends: the scope still routes it, but its clock does not jump.
//
// The runtime asks the executor the sleeping code runs on first, when it is not a default actor
// (`Task.currentSchedulingExecutor`): so a sleep in main-actor code of the scope comes to the
// scope's main executor, whether or not its task prefers the scope's executor. That puts the
// sleeps of a main-actor `Task { }` on virtual time where task creation cannot be watched.
#if compiler(>=6.3)
  /// An executor of a scope's that schedules a sleep on the scope's virtual time.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  protocol ScopeSchedulingExecutor: SchedulingExecutor {}

  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  extension ScopeSchedulingExecutor {
    func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
      JobRouter.shared.schedule(UnownedJob(job), after: ScopePoolExecutor.duration(delay))
    }

    func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
      JobRouter.shared.schedule(UnownedJob(job), at: instant, on: clock)
    }
  }

  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  extension ScopePoolExecutor: ScopeSchedulingExecutor {}

  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  extension ScopeMainExecutor: ScopeSchedulingExecutor {}

  extension JobRouter {
    /// Holds `job` until `instant` of `clock`, as ``schedule(_:after:)`` does.
    fileprivate func schedule<C: Clock>(_ job: UnownedJob, at instant: C.Instant, on clock: C) {
      // `Task.sleep(for:)` asks for an instant: the clock's reading as it was called plus the
      // duration. Read again here, a few microseconds later, the delay falls short of the
      // duration by those microseconds, by a different amount each run. Counted in whole
      // milliseconds, rounded up, sleeps of equal durations begun at the same virtual moment
      // end together (and in the order they began), the same way every run.
      let delay = ScopePoolExecutor.duration(clock.now.duration(to: instant))
      let milliseconds = (delay / .milliseconds(1)).rounded(.up)
      schedule(job, after: .milliseconds(max(milliseconds, 0)))
    }
  }
#endif
