import LockSupport
import TaskProviding

/// The jobs one scheduler owns, and only those: the work its body starts, and whatever that
/// work causes (child tasks, unstructured and detached tasks, actor turns, main-actor hops,
/// continuations resumed from any thread). ``JobRouter`` says which jobs those are, and gives
/// them to the scope; the scope owns its queue, its virtual time and its driving.
///
/// Open one, start the work inside ``adopting(_:)``, then take and run its jobs on the same
/// thread until the work is done; close it to hand back what it never ran. Scopes can be open
/// at once, nested or side by side: each runs only its own jobs.
final class JobScope: Sendable {
  /// Its jobs, its virtual time and what it noted of its tasks, behind a lock of its own.
  let state = Locked(ScopeState())
  /// What the driver sleeps on while it waits for a job from another thread.
  let semaphore = DriverSemaphore()

  // Guarded by the router's registry lock, as the registry is: whether the scope is open,
  // and the tasks and actor turns it claimed, to forget them when it closes. Kept on the
  // scope rather than in tables keyed by scope, so that a scope's open, claim and close
  // hash nothing.
  /// Whether the scope is open.
  @exclusivity(unchecked) nonisolated(unsafe) var isOpen = false
  /// Addresses of the tasks it claimed.
  @exclusivity(unchecked) nonisolated(unsafe) var claimedTasks: [UInt] = []
  /// Addresses of the actors whose turns it claimed.
  @exclusivity(unchecked) nonisolated(unsafe) var claimedActorTurns: [UInt] = []
  /// How many times another owner had cleared the global hook when the scope opened.
  @exclusivity(unchecked) nonisolated(unsafe) var clearingsAtOpen = 0

  private init() {}

  /// A new scope driven by the calling thread, or `nil` when the runtime lacks the hooks.
  static func open() -> JobScope? {
    guard RuntimeHooks.isAvailable else { return nil }
    let scope = JobScope()
    _ = DriverContext.enter()
    JobRouter.shared.register(scope)
    TaskCreation.scopeOpened()
    if SleepFloor.isReal { scope.state.withLock { $0.sleepsKeepRealTime = true } }
    return scope
  }

  /// Hands every job still queued back to the runtime and forgets the scope's tasks.
  /// Returns `false` when something else replaced the runtime's global hook while the scope
  /// was open (see ``JobRouter/unregister(_:)``).
  @discardableResult
  func close() -> Bool {
    let hookHeld = JobRouter.shared.unregister(self)
    let (leftovers, timers, now) = state.withLock {
      state -> ([ReadyJob], [ScopeTimer], Duration) in
      state.isClosed = true
      defer {
        state.jobs = []
        state.head = 0
        state.timers = []
      }
      return (Array(state.jobs[state.head...]), state.timers, state.now)
    }
    // A sleep still under way when its scope ends goes on in real time for what is left of
    // it: it ends neither early nor never.
    for timer in timers {
      let left = max(timer.deadline - now, .zero).dispatchNanoseconds
      runLater(afterNanoseconds: left) { JobRouter.forward(timer.job, .pool) }
    }
    DriverContext.leave()
    TaskCreation.scopeClosed()
    for entry in leftovers { JobRouter.forward(entry.job, entry.lane) }
    return hookHeld
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
    let context = DriverContext.current
    context?.beginAdopting(self)
    defer { context?.endAdopting() }
    return try body()
  }

  /// Calls `tracer` with each job the scope is given, on the thread that enqueues it.
  func trace(_ tracer: (@Sendable (JobEvent) -> Void)?) {
    state.withLock { $0.tracer = tracer }
  }

  // MARK: Jobs arriving

  /// Queues `job`, which the router found to be this scope's, and wakes the driver if it
  /// waits for one; `false` once the scope has closed. `task` and `actor` say whose job it
  /// is, `enqueuer` which task enqueued it; `outside`: it came from a thread that does not
  /// drive the scope; `fromSleep`: it is a sleep's end, which the scope counted when the
  /// sleep began.
  func accept(
    _ job: UnownedJob, lane: JobLane, task: TaskIdentity?, actor: UInt?, enqueuer: TaskIdentity?,
    outside: Bool, fromSleep: Bool, fromGlobalHook: Bool
  ) -> Bool {
    let queued = state.withLock {
      state -> (entry: ReadyJob, wake: Waking, tracer: (@Sendable (JobEvent) -> Void)?)? in
      guard !state.isClosed else { return nil }
      if outside { state.outsideArrivals += 1 }
      if !outside, state.effects != nil {
        if let task { state.effects?.tasks.append(task) }
        if let actor { state.effects?.actors.append(actor) }
        if case .mainActor = lane { state.effects?.mainActor = true }
      }
      if fromGlobalHook { state.globalHookArrivals += 1 }
      if let enqueuer, !state.unpreferred.isEmpty, state.unpreferredNames[enqueuer] == nil,
        state.unpreferred.contains(enqueuer), let name = RuntimeHooks.currentTaskName()
      {
        state.unpreferredNames[enqueuer] = name
      }
      let entry = ReadyJob(
        sequence: state.nextSequence, lane: lane, task: task, actor: actor,
        endsSleep: fromSleep, job: job)
      state.nextSequence += 1
      state.jobs.append(entry)
      if let task {
        if !state.hopping.isEmpty, let executors = state.hopping.removeValue(forKey: task) {
          state.runAtOnce = (entry.sequence, executors)
        } else if lane == .pool, task == state.standingIn {
          state.runAtOnce = (entry.sequence, .standIn)
        }
      }
      return (entry, state.wakeDriver(), state.tracer)
    }
    guard let (entry, wake, tracer) = queued else { return false }
    self.wake(wake)
    if let tracer {
      tracer(
        JobEvent(
          sequence: entry.sequence, lane: lane, task: task, enqueuedBy: enqueuer,
          enqueuerName: enqueuer == nil ? nil : RuntimeHooks.currentTaskName(),
          endsSleep: fromSleep))
    }
    return true
  }

  /// Who waits for a job from another thread.
  enum Waking {
    case nobody
    case thread
    case task(CheckedContinuation<Void, Never>)
  }

  /// Wakes the driver ``ScopeState/wakeDriver()`` took.
  func wake(_ waking: Waking) {
    switch waking {
    case .nobody: break
    case .thread: semaphore.signal()
    case .task(let continuation): continuation.resume()
    }
  }

  /// Notes that `task`, just spawned by this scope's code, takes the scope's task executor as
  /// its preference as its first step (``ScopeTaskPreference``).
  func noteTakingPreference(_ task: TaskIdentity) {
    state.withLock { _ = $0.takingPreference.insert(task) }
  }

  // MARK: Running jobs

  /// The jobs that may run next, in enqueue order: the oldest main-actor job (the main actor
  /// runs its jobs in order) and every job for the pool.
  var runnable: [ReadyJob] {
    state.withLock { state in
      var runnable: [ReadyJob] = []
      var sawMain = false
      var index = state.head
      while index < state.jobs.count {
        let entry = state.jobs[index]
        if entry.lane == .pool || !sawMain {
          if entry.lane == .mainActor { sawMain = true }
          runnable.append(entry)
        }
        index += 1
      }
      return runnable
    }
  }

  /// Whether no job is waiting.
  var isIdle: Bool { state.withLock { $0.count == 0 } }

  /// Runs one of the jobs `runnable` listed.
  func run(_ job: ReadyJob) {
    _ = runNext { jobs, head in
      var index = head
      while index < jobs.count, jobs[index].sequence != job.sequence { index += 1 }
      return index < jobs.count ? index : head
    }
  }

  /// Runs `job`, as ``run(_:)`` does, and returns what it enqueued and set.
  func runRecordingEffects(_ job: ReadyJob) -> JobEffects {
    recordingEffects { run(job) }
  }

  /// Runs `body`, as ``adopting(_:)`` does, and returns what it enqueued and set.
  func adoptingRecordingEffects(_ body: () -> Void) -> JobEffects {
    recordingEffects { adopting(body) }
  }

  private func recordingEffects(_ body: () -> Void) -> JobEffects {
    state.withLock { $0.effects = JobEffects() }
    body()
    return state.withLock { state in
      defer { state.effects = nil }
      return state.effects ?? JobEffects()
    }
  }

  /// Takes the job `pick` chooses (given the queued jobs and the index of the first still
  /// waiting, it returns the index of one at or after it) and runs it on the calling thread.
  /// Returns `false` when no job waits.
  func runNext(pick: (_ jobs: [ReadyJob], _ head: Int) -> Int) -> Bool {
    JobRouter.shared.keepGlobalHook()
    let taken = state.withLock { state -> (job: ReadyJob, executors: JobExecutors)? in
      guard state.head < state.jobs.count else { return nil }
      let job = state.removeJob(at: pick(state.jobs, state.head))
      return (job, state.executors(for: job))
    }
    guard let taken else { return false }
    let context = DriverContext.current
    context?.beginJob(of: self, lane: taken.job.lane)
    defer { context?.endJob() }
    var next: (job: ReadyJob, executors: JobExecutors)? = taken
    // A task that took or gave back the scope's preference, or ran with the scope's executor
    // standing in for the pool's, may hop only because of that: such a hop is part of this
    // job, as the runtime would run it on the same thread, however many there are. A
    // `Task.yield()` is not such a hop: it enqueues a job of its own, not the task, so it
    // stays a choice, and a task that yields in a loop waiting for another lets the other run.
    while let (job, executors) = next {
      let standsIn = job.lane == .pool && executors == .standIn
      if standsIn { state.withLock { $0.standingIn = job.task } }
      executors.run(job)
      next = state.withLock { state in
        if standsIn { state.standingIn = nil }
        return state.takeRunAtOnce()
      }
    }
    return true
  }
}
