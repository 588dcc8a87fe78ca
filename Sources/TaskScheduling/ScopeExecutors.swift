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
    if case .foreign = JobRouter.shared.route(job, .mainActor) {
      JobRouter.forward(job, .mainActor)
    }
  }

  /// Main-actor code that runs outside the runtime's view of this executor (the scheduler's
  /// own caller) is isolated iff it runs on a driving thread and not inside a pool job: that
  /// thread holds the real main actor, and runs every main-actor job of its scopes.
  func checkIsolated() {
    guard JobRouter.shared.isMainActorThread() else {
      fatalError(
        "Main-actor code ran off the thread that drives withSerialScheduler or explore.")
    }
  }
}

/// What a scope's pool jobs run on: a task executor, so the runtime lets no task switch
/// executors inside a job (see ``JobRouter/run(_:of:)``). No task prefers it, so the runtime
/// should never enqueue on it; if it does, the job is routed like any other pool job.
final class ScopePoolExecutor: TaskExecutor {
  static let shared = ScopePoolExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if case .foreign = JobRouter.shared.route(job, .pool) {
      JobRouter.forward(job, .pool)
    }
  }
}
