import TaskProviding

/// What one scope's lock guards: its jobs waiting to run, its virtual time, and what it has
/// noted of its tasks. The scope's driver and the threads that enqueue its jobs meet here,
/// and nobody else does.
struct ScopeState {
  /// Jobs waiting to run, in enqueue order, from `head` on.
  var jobs: [ReadyJob] = []
  var head = 0
  var nextSequence = 0
  /// Whether the driver sleeps waiting for a job from another thread.
  var isSleeping = false
  /// The driver's task, when it waits for such a job without holding its thread.
  var waiter: CheckedContinuation<Void, Never>?
  /// How many times the driver's task has waited so.
  var waits = 0
  /// Once closed, a job that was on its way here goes to the runtime instead.
  var isClosed = false
  /// Sleeps of the scope's tasks that have not ended yet: each brings a job when it does.
  /// Only sleeps that keep real time count: those of a task that started on the scope's
  /// executor while no scope was open to take it.
  var pendingSleeps = 0
  /// The scope's virtual time: how far it has moved since the scope opened.
  var now = Duration.zero
  /// Sleeps of the scope's tasks, each ended by a job, on the scope's virtual time.
  var timers: [ScopeTimer] = []
  /// Whether each of those sleeps also ends no sooner in real time than it would on the
  /// runtime (``SleepFloor``).
  var sleepsKeepRealTime = false
  var nextTimer = 0
  /// Jobs that came from a thread outside the scope (a callback, a dispatch queue), other
  /// than a sleep's end: the scope's work has something outside it that can wake it.
  var outsideArrivals = 0
  /// Jobs that reached the scope through the global enqueue hook rather than one of its
  /// executors: those another owner's clearing of the hook could send elsewhere.
  var globalHookArrivals = 0
  /// Tasks that take the scope's task executor as their preference as their first step
  /// (``ScopeTaskPreference``), until they have: they run as created, and are not counted
  /// among those that run without it.
  var takingPreference: Set<TaskIdentity> = []
  /// Tasks that took the preference after they were created: their jobs run on the scope's
  /// executor, as those of a task created with it.
  var preferring: Set<TaskIdentity> = []
  /// Tasks about to take or give back such a preference, with whether they will have it:
  /// the hop the runtime makes for that is no place where another job could run in
  /// production, so it runs at once (``JobScope/runNext(pick:)``).
  var hopping: [TaskIdentity: JobExecutors] = [:]
  /// The task whose pool job runs with the scope's task executor standing in for the
  /// pool's (``JobExecutors/standIn``): a hop of its own back to the pool runs at once.
  var standingIn: TaskIdentity?
  /// The job of such a hop, by its sequence, once it has come, and the executors its task
  /// then runs under.
  var runAtOnce: (sequence: Int, executors: JobExecutors)?
  /// Tasks whose jobs ran here without the scope's preference, in the order first seen,
  /// and the names of those whose names were seen: a hop of theirs from an actor may have
  /// run inline, outside the scope's choices.
  var unpreferred: [TaskIdentity] = []
  var unpreferredNames: [TaskIdentity: String] = [:]
  /// Where task creation cannot be watched: whether an actor's turn ran here, and the
  /// names of the first few such actors' types. Code on an actor may create a `Task { }`
  /// isolated to it, which starts in the actor's queue and may hop on from there with no
  /// job the scope sees, so nothing tells the scope it exists.
  var ranUnwatchedActorTurn = false
  var unwatchedActors: [String] = []
  var tracer: (@Sendable (JobEvent) -> Void)?
  /// What the job the driver runs enqueues and sets, while an exploration that reduces by
  /// what jobs do records it.
  var effects: JobEffects?

  var count: Int { jobs.count - head }

  /// Whoever of the driver waits for a job from another thread, taken to be woken
  /// outside the lock: its task, its thread, or nobody.
  mutating func wakeDriver() -> JobScope.Waking {
    defer {
      isSleeping = false
      waiter = nil
    }
    if let waiter { return .task(waiter) }
    return isSleeping ? .thread : .nobody
  }

  /// The executors `entry` runs under; notes a task that runs without the scope's
  /// preference.
  mutating func executors(for entry: ReadyJob) -> JobExecutors {
    guard let task = entry.task else {
      if entry.actor != nil, !TaskCreation.isWatched { noteUnwatchedActorTurn(entry) }
      return .asCreated
    }
    if RuntimeHooks.hasTaskExecutorPreference(entry.job) || preferring.contains(task) {
      return .scopes
    }
    // The runtime's own small task that ends a sleep runs no code of the scenario's.
    if takingPreference.contains(task) || entry.endsSleep { return .asCreated }
    if !unpreferred.contains(task) { unpreferred.append(task) }
    return .standIn
  }

  private mutating func noteUnwatchedActorTurn(_ entry: ReadyJob) {
    ranUnwatchedActorTurn = true
    guard unwatchedActors.count < 3,
      let name = RuntimeHooks.actorTypeName(ofTurn: entry.job), !unwatchedActors.contains(name)
    else { return }
    unwatchedActors.append(name)
  }

  /// Takes the job that must run at once, if one has come.
  mutating func takeRunAtOnce() -> (job: ReadyJob, executors: JobExecutors)? {
    guard let (sequence, executors) = runAtOnce else { return nil }
    runAtOnce = nil
    var index = head
    while index < jobs.count, jobs[index].sequence != sequence { index += 1 }
    return index < jobs.count ? (removeJob(at: index), executors) : nil
  }

  mutating func removeJob(at index: Int) -> ReadyJob {
    let entry = jobs[index]
    if index == head {
      head += 1
      if head == jobs.count, head >= 64 {
        // Reset now and then, not after every job: emptying an array is not free.
        jobs.removeAll(keepingCapacity: true)
        head = 0
      }
    } else {
      jobs.remove(at: index)
    }
    return entry
  }
}
