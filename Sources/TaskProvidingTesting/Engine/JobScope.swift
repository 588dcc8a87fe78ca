/// The jobs one scheduler owns, and only those: the work its body starts, and whatever that
/// work causes (child tasks, unstructured and detached tasks, actor turns, main-actor hops,
/// continuations resumed from any thread). ``JobRouter`` says which jobs those are.
///
/// Open one, start the work inside ``adopting(_:)``, then take and run its jobs on the same
/// thread until the work is done; close it to hand back what it never ran. Scopes can be open
/// at once, nested or side by side: each runs only its own jobs.
final class JobScope: Sendable {
  private let queue = JobRouter.Queue()

  private init() {}

  /// A new scope driven by the calling thread, or `nil` when the runtime lacks the hooks.
  static func open() -> JobScope? {
    let scope = JobScope()
    guard JobRouter.shared.open(scope.queue) else { return nil }
    if SleepFloor.isReal { JobRouter.shared.keepRealTimeForSleeps(scope.queue) }
    return scope
  }

  /// Hands every job still queued back to the runtime and forgets the scope's tasks.
  /// Returns `false` when something else replaced the runtime's global hook while the scope
  /// was open (see ``JobRouter/close(_:)``).
  @discardableResult
  func close() -> Bool {
    JobRouter.shared.close(queue)
  }

  /// What a scheduler reports when ``close()`` returns `false`.
  static let hookReplacedMessage = """
    Something cleared the runtime's global enqueue hook while the scheduler ran: \
    withMainSerialExecutor ending, or uncheckedUseMainSerialExecutor set to false, in a test \
    running beside it. The toolkit put its hook back and chains to the other owner's, but \
    some of this test's pool jobs may have run outside the scheduler meanwhile, in another \
    order. Set uncheckedUseMainSerialExecutor once and leave it on (as a suite's init does), \
    or keep the tests that turn it off from running beside this one (a .serialized suite \
    holding both, or an exit test).
    """

  /// Runs `body` with every job it enqueues counted as this scope's: how a scheduler starts
  /// its body, and how an explorer takes an action or answers a call.
  func adopting<R>(_ body: () throws -> R) rethrows -> R {
    try JobRouter.shared.adopting(queue, body)
  }

  /// Calls `tracer` with each job the scope is given, on the thread that enqueues it.
  func trace(_ tracer: (@Sendable (JobEvent) -> Void)?) {
    JobRouter.shared.setTracer(queue, tracer)
  }

  /// The jobs that may run next, in enqueue order: the oldest main-actor job and every pool
  /// job.
  var runnable: [ReadyJob] { JobRouter.shared.runnable(queue) }

  /// Whether no job is waiting.
  var isIdle: Bool { JobRouter.shared.count(queue) == 0 }

  /// Runs one of the jobs `runnable` listed.
  func run(_ job: ReadyJob) {
    _ = JobRouter.shared.runNext(queue, sleepIfEmpty: false) { jobs, head in
      var index = head
      while index < jobs.count, jobs[index].sequence != job.sequence { index += 1 }
      return index < jobs.count ? index : head
    }
  }

  /// Runs `job`, as ``run(_:)`` does, and returns what it enqueued and set.
  func runRecordingEffects(_ job: ReadyJob) -> JobEffects {
    JobRouter.shared.recordingEffects(of: queue) { run(job) }
  }

  /// Runs `body`, as ``adopting(_:)`` does, and returns what it enqueued and set.
  func adoptingRecordingEffects(_ body: () -> Void) -> JobEffects {
    JobRouter.shared.recordingEffects(of: queue) { adopting(body) }
  }

  /// Why ``runReady(ended:order:jobsRun:stopAfter:watchdog:turnEnds:)`` stopped.
  enum Pause {
    /// `ended` holds, or the limit of jobs was reached.
    case ended
    /// No job is ready and no sleep of the scope's tasks is under way: only a thread
    /// outside the scope can bring one.
    case idle
    /// The turn ended with jobs still to run.
    case turnOver
  }

  /// Runs jobs, each chosen by `order`, until `ended` holds, `limit` jobs have run here, no
  /// job is ready (virtual time first moving to the earliest sleep's end), or `turnEnds`
  /// passes. `watchdog`, if given, is told of each job as it begins and ends.
  func runReady(
    ended: () -> Bool, order: inout JobPicker, jobsRun: inout Int, stopAfter limit: Int = .max,
    watchdog: JobWatchdog? = nil, turnEnds: ContinuousClock.Instant? = nil
  ) -> Pause {
    var ranHere = 0
    while true {
      // Only a job this loop runs can end the body, so checking between jobs is enough.
      if ended() { return .ended }
      if let turnEnds, ContinuousClock.now >= turnEnds { return .turnOver }
      if JobRouter.shared.runNext(
        queue, sleepIfEmpty: false,
        pick: { jobs, head in
          let index = order.pick(from: jobs, after: head)
          if let watchdog, index < jobs.count { watchdog.begin(jobs[index]) }
          return index
        })
      {
        watchdog?.end()
        jobsRun += 1
        ranHere += 1
        if ranHere >= limit { return .ended }
        continue
      }
      // No job is ready: the scope's time moves to its earliest sleep's end.
      if JobRouter.shared.wakeEarliestTimer(queue) { continue }
      return .idle
    }
  }

  /// Runs jobs, each chosen by `order`, until `ended` holds or `deadline` passes; returns
  /// whether `ended` holds. While it waits for a job from another thread (a timer, a
  /// callback), it sleeps. It stops early, returning `true`, after `limit` jobs. `watchdog`,
  /// if given, is told of each job as it begins and ends.
  func drain(
    until deadline: ContinuousClock.Instant, ended: () -> Bool, order: inout JobPicker,
    jobsRun: inout Int, stopAfter limit: Int = .max, watchdog: JobWatchdog? = nil
  ) -> Bool {
    while true {
      switch runReady(
        ended: ended, order: &order, jobsRun: &jobsRun, stopAfter: limit, watchdog: watchdog)
      {
      case .ended: return true
      case .idle, .turnOver:
        guard JobRouter.shared.sleepIfIdle(queue) else { continue }
        if !JobRouter.shared.sleep(queue, until: deadline), ContinuousClock.now >= deadline {
          return ended()
        }
      }
    }
  }

  /// ``drain(until:ended:order:jobsRun:stopAfter:watchdog:)``, giving the main actor back
  /// after each turn (``MainActorTurn``) and while it waits for a job from another thread.
  @MainActor
  func drain(
    until deadline: ContinuousClock.Instant, ended: () -> Bool, order: inout JobPicker,
    jobsRun: inout Int, watchdog: JobWatchdog? = nil
  ) async -> Bool {
    while true {
      switch runReady(
        ended: ended, order: &order, jobsRun: &jobsRun, watchdog: watchdog,
        turnEnds: .now + MainActorTurn.length)
      {
      case .ended: return true
      case .turnOver:
        pauseDriving()
        await MainActorTurn.giveBackIfDue()
        resumeDriving()
      case .idle:
        pauseDriving()
        await JobRouter.shared.wait(for: queue, until: deadline)
        resumeDriving()
        if JobRouter.shared.count(queue) == 0, ContinuousClock.now >= deadline {
          return ended()
        }
      }
    }
  }

  /// Moves the scope's virtual time to its earliest sleep's end and queues the job that ends
  /// it; `false` when no sleep of its tasks is under way.
  func wakeEarliestTimer() -> Bool { JobRouter.shared.wakeEarliestTimer(queue) }

  /// Where the scope's virtual time stands, and when its earliest sleep ends.
  var virtualTime:
    (now: Duration, nextDeadline: Duration?, nextRealDeadline: ContinuousClock.Instant?)
  {
    JobRouter.shared.virtualTime(queue)
  }

  /// Sleeps of the scope's tasks not yet ended, each of which will bring a job.
  var pendingSleeps: Int { JobRouter.shared.outsideWork(queue).pendingSleeps }

  /// The names, where seen, of the scope's tasks whose jobs ran without its task executor as
  /// their preference, first seen first: tasks created where task creation cannot be watched,
  /// not through a provider (see ``ScopeTaskPreference``).
  var unpreferredTaskNames: [String?] {
    JobRouter.shared.unpreferredTaskNames(queue)
  }

  /// Where task creation cannot be watched: whether an actor's turn ran, on which a task the
  /// scope cannot see may have been created, and the names of the first few such actors.
  var unwatchedActorTurns: (ran: Bool, actors: [String]) {
    JobRouter.shared.unwatchedActorTurns(queue)
  }

  /// Whether a job has come from a thread outside the scope (a callback, a dispatch queue),
  /// other than a sleep's end.
  var hasHeardFromOutside: Bool { JobRouter.shared.outsideWork(queue).arrivals > 0 }

  /// The calling thread stops driving the scope until ``resumeDriving()``: a driver about to
  /// suspend may resume on another thread (the main actor's jobs run on any thread of the
  /// main queue), and this one may meanwhile run anyone's work, which must not count as the
  /// scope's.
  func pauseDriving() { DriverContext.leave() }

  /// The calling thread drives the scope again, after ``pauseDriving()``.
  func resumeDriving() { _ = DriverContext.enter() }

  /// Waits, holding no thread, until a job arrives from another thread or `deadline`
  /// passes.
  func waitForJob(until deadline: ContinuousClock.Instant) async {
    await JobRouter.shared.wait(for: queue, until: deadline)
  }

  /// Waits until a job arrives from another thread or `deadline` passes; returns whether
  /// one is waiting.
  func waitForJob(until deadline: ContinuousClock.Instant) -> Bool {
    while JobRouter.shared.sleepIfIdle(queue) {
      if !JobRouter.shared.sleep(queue, until: deadline), ContinuousClock.now >= deadline {
        return !isIdle
      }
    }
    return true
  }
}
