import LockSupport
import Synchronization
import TaskProviding

/// Sends each job of the process where it belongs while a ``JobScope`` is open: a scope's own
/// jobs join that scope's queue, every other job goes on to the runtime's executors at once.
///
/// It sits behind the runtime's two process-wide hooks (the global enqueue, and the question
/// "which executor is the main actor's"), installed while at least one scope is open. A job
/// is a scope's own when:
/// - it is enqueued on a thread that drives the scope, while that thread runs one of the
///   scope's jobs or starts the scope's work: a task started there, a child task, an actor's
///   turn the scope's code asked for (the thread's ``DriverContext`` says so);
/// - or it is a task the scope has seen before (its address and its never-reused id match), so
///   a continuation resumed from any thread (a timer, a callback) comes back;
/// - or it is enqueued while one of the scope's tasks is running, on any thread;
/// - or it is the turn of an actor whose earlier turn was the scope's, enqueued from a thread
///   with no task (a callback resuming a task that waits on that actor).
/// Everything else is someone else's and is never held, reordered or run on a driver thread.
/// Such a job costs a look into the thread's own storage and a shared read lock.
final class JobRouter: Sendable {
  static let shared = JobRouter()

  /// The other owner's global hook, which everyone else's jobs go on to while a scope is open:
  /// `withMainSerialExecutor`'s, or the one a suite left on with
  /// `uncheckedUseMainSerialExecutor`. Its bits, for the hook to read without a lock.
  private static let chained = Atomic<UInt>(0)

  private let registry = ReadWriteLocked(Registry())

  // MARK: Scopes

  /// Opens `queue` for a scope driven by the calling thread; the first scope installs the
  /// hooks. `false` when the runtime lacks them.
  func open(_ queue: Queue) -> Bool {
    guard RuntimeHooks.isAvailable else { return false }
    _ = RuntimeHooks.realMainExecutor
    _ = DriverContext.enter()
    registry.write { registry in
      let first = registry.openCount == 0
      registry.openCount += 1
      queue.isOpen = true
      queue.clearingsAtOpen = registry.clearings
      // The slots are written under the lock, as the count is: a scope opening on one
      // thread while the last closes on another would otherwise find the hooks it installs
      // cleared by the closing one, or take our own hook for another owner's.
      if first {
        let found = RuntimeHooks.global?.pointee
        registry.previousGlobal = Self.isOurs(found) ? nil : found
        registry.previousMain = RuntimeHooks.mainExecutor?.pointee
        Self.chain(registry.previousGlobal)
        RuntimeHooks.global?.pointee = Self.globalHook
        RuntimeHooks.mainExecutor?.pointee = Self.mainHook
      }
    }
    TaskCreation.scopeOpened()
    return true
  }

  /// Closes `queue`: forgets its tasks, hands the jobs it never ran back to the runtime, and
  /// the last scope puts back the hooks it found. Returns `false` when another owner
  /// (`withMainSerialExecutor`, `uncheckedUseMainSerialExecutor = false`) cleared the global
  /// hook while the scope was open, so that some of the scope's pool jobs may have run
  /// outside it.
  @discardableResult
  func close(_ queue: Queue) -> Bool {
    keepGlobalHook()
    // A scope whose jobs all reached it through its executors lost none while the slot was
    // empty; one that was given jobs through the global hook may have.
    let cleared = registry.read { $0.clearings != queue.clearingsAtOpen }
    let hookHeld = !cleared || queue.state.withLock { $0.globalHookArrivals == 0 }
    registry.write { registry in
      if queue.isOpen {
        queue.isOpen = false
        registry.openCount -= 1
      }
      for address in queue.claimedTasks where registry.taskOwners[address]?.queue === queue {
        registry.taskOwners[address] = nil
      }
      for address in queue.claimedActorTurns where registry.actorTurnOwners[address] === queue {
        registry.actorTurnOwners[address] = nil
      }
      queue.claimedTasks = []
      queue.claimedActorTurns = []
      if registry.openCount == 0 {
        RuntimeHooks.global?.pointee = registry.previousGlobal
        RuntimeHooks.mainExecutor?.pointee = registry.previousMain
        Self.chain(nil)
      }
    }
    let (leftovers, timers, now) = queue.state.withLock {
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
      runLater(afterNanoseconds: left) { Self.forward(timer.job, .pool) }
    }
    DriverContext.leave()
    TaskCreation.scopeClosed()
    for entry in leftovers { Self.forward(entry.job, entry.lane) }
    return hookHeld
  }

  // Everyone else's job goes on to the other owner's hook, if there is one, as if ours were
  // not there: `withMainSerialExecutor` keeps serializing its own test's jobs beside a scope.
  private static let globalHook: RuntimeHooks.GlobalHook = { job, original in
    guard case .foreign = JobRouter.shared.route(job, .pool, fromGlobalHook: true) else { return }
    let bits = JobRouter.chained.load(ordering: .acquiring)
    if bits == 0 {
      original(job)
    } else {
      unsafeBitCast(bits, to: RuntimeHooks.GlobalHook.self)(job, original)
    }
  }

  private static func chain(_ hook: RuntimeHooks.GlobalHook?) {
    let bits = hook.map { unsafeBitCast($0, to: UInt.self) } ?? 0
    chained.store(bits, ordering: .releasing)
  }

  /// Puts the router's global hook back if another owner wrote the slot while a scope is
  /// open, and chains to what it wrote. Swift Concurrency Extras writes the slot whole, at
  /// `withMainSerialExecutor`'s start and end and each time a suite sets
  /// `uncheckedUseMainSerialExecutor`. A hook it wrote sends our jobs to the main actor, whose
  /// executor is a scope's while one is open, so they still reach their scope; a slot it
  /// cleared sends them to the runtime's pool, so each open scope is told. Called for every
  /// job a scope's executors are given and at each step of a scope's driver.
  @inline(__always)
  func keepGlobalHook() {
    guard let slot = RuntimeHooks.global, !Self.isOurs(slot.pointee) else { return }
    repairGlobalHook(slot)
  }

  @inline(never)
  private func repairGlobalHook(_ slot: UnsafeMutablePointer<RuntimeHooks.GlobalHook?>) {
    let cleared = registry.write { registry -> Bool? in
      guard registry.openCount > 0 else { return nil }
      let found = slot.pointee
      guard !Self.isOurs(found) else { return nil }
      registry.previousGlobal = found
      Self.chain(found)
      slot.pointee = Self.globalHook
      if found == nil { registry.clearings += 1 }
      return found == nil
    }
    guard let cleared else { return }
    Self.noteOtherOwner(cleared: cleared)
  }

  private static let toldOfOtherOwner = Locked(false)

  /// Says once, on standard error, that another owner wrote the hook beside a scope.
  private static func noteOtherOwner(cleared: Bool) {
    let first = toldOfOtherOwner.withLock { told in
      defer { told = true }
      return !told
    }
    guard first else { return }
    print(
      "TaskProvidingTesting: another owner (withMainSerialExecutor?) wrote the runtime's "
        + "global enqueue hook while a scheduler or an exploration ran; the toolkit chains to "
        + "it\(cleared ? ", but a scope's jobs may have reached the pool meanwhile" : "").")
  }

  private static let mainHook: RuntimeHooks.MainHook = { _ in
    ScopeMainExecutor.shared.asUnownedSerialExecutor()
  }

  private static func isOurs(_ hook: RuntimeHooks.GlobalHook?) -> Bool {
    guard let hook else { return false }
    return unsafeBitCast(hook, to: UnsafeRawPointer.self)
      == unsafeBitCast(globalHook, to: UnsafeRawPointer.self)
  }

  /// Runs `body` with every job the calling thread enqueues meanwhile counted as `queue`'s.
  func adopting<R>(_ queue: Queue, _ body: () throws -> R) rethrows -> R {
    let context = DriverContext.current
    context?.beginAdopting(queue)
    defer { context?.endAdopting() }
    return try body()
  }

  func setTracer(_ queue: Queue, _ tracer: (@Sendable (JobEvent) -> Void)?) {
    queue.state.withLock { $0.tracer = tracer }
  }

  // MARK: Routing

  /// Where `route` put a job.
  enum Routing {
    /// In its scope's queue.
    case queued
    /// Nowhere: it is nobody's, and goes on to the runtime.
    case foreign
  }

  /// Queues `job` if it is a scope's own. `fromSleep`: it is a sleep's end, which the scope
  /// counted when the sleep began.
  func route(
    _ job: UnownedJob, _ lane: JobLane, fromSleep: Bool = false, fromGlobalHook: Bool = false
  ) -> Routing {
    let address = unsafeBitCast(job, to: UInt.self)
    let pointer = UnsafeRawPointer(bitPattern: address)!
    let identity = RuntimeHooks.taskIdentity(pointer)
    // This runs for every job of every scope: plain branches, no closures.
    var current: TaskIdentity?
    if let task = RuntimeHooks.currentTask() { current = RuntimeHooks.taskIdentity(task) }
    // An actor's turn is known by its actor, whose address stays put while its jobs wait.
    var actor: UInt?
    if case .none = identity { actor = RuntimeHooks.actor(ofTurn: pointer) }
    // Who owns it, and whether the registry must learn that this task or actor turn is its.
    let found = registry.read { registry -> (queue: Queue, claim: Bool)? in
      guard registry.openCount > 0 else { return nil }
      if let identity, let known = registry.taskOwners[address], known.id == identity.id {
        return (known.queue, false)
      }
      var owner = DriverContext.current?.owner
      if case .none = owner, let current, let known = registry.taskOwners[current.address],
        known.id == current.id
      {
        owner = known.queue
      }
      if case .none = owner, let actor, case .none = current {
        owner = registry.actorTurnOwners[actor]
      }
      guard let owner, owner.isOpen else { return nil }
      let known: Bool
      if let actor {
        known = registry.actorTurnOwners[actor] === owner
      } else if case .none = identity {
        known = true
      } else {
        known = false
      }
      return (owner, !known)
    }
    guard let (queue, claim) = found else { return .foreign }
    if claim { self.claim(address, identity: identity, actor: actor, for: queue) }
    let outside = !fromSleep && DriverContext.current?.owner !== queue
    let queued = queue.state.withLock {
      state -> (entry: ReadyJob, wake: Queue.Waking, tracer: (@Sendable (JobEvent) -> Void)?)? in
      guard !state.isClosed else { return nil }
      if outside { state.outsideArrivals += 1 }
      if !outside, state.effects != nil {
        if let identity { state.effects?.tasks.append(identity) }
        if let actor { state.effects?.actors.append(actor) }
        if case .mainActor = lane { state.effects?.mainActor = true }
      }
      if fromGlobalHook { state.globalHookArrivals += 1 }
      if let current, !state.unpreferred.isEmpty, state.unpreferredNames[current] == nil,
        state.unpreferred.contains(current), let name = RuntimeHooks.currentTaskName()
      {
        state.unpreferredNames[current] = name
      }
      let entry = ReadyJob(
        sequence: state.nextSequence, lane: lane, task: identity, actor: actor,
        endsSleep: fromSleep, job: job)
      state.nextSequence += 1
      state.jobs.append(entry)
      if let identity {
        if !state.hopping.isEmpty, let executors = state.hopping.removeValue(forKey: identity) {
          state.runAtOnce = (entry.sequence, executors)
        } else if lane == .pool, identity == state.standingIn {
          state.runAtOnce = (entry.sequence, .standIn)
        }
      }
      return (entry, state.wakeDriver(), state.tracer)
    }
    guard let (entry, wake, tracer) = queued else { return .foreign }
    queue.wake(wake)
    if let tracer {
      tracer(
        JobEvent(
          sequence: entry.sequence, lane: lane, task: identity, enqueuedBy: current,
          enqueuerName: current == nil ? nil : RuntimeHooks.currentTaskName(),
          endsSleep: fromSleep))
    }
    return .queued
  }

  /// Records that the task or actor turn at `address` is `queue`'s from now on.
  private func claim(
    _ address: UInt, identity: TaskIdentity?, actor: UInt?, for queue: Queue
  ) {
    registry.write { registry in
      guard queue.isOpen else { return }
      if let identity {
        var isNew = true
        if let known = registry.taskOwners[address], known.id == identity.id { isNew = false }
        if isNew {
          registry.taskOwners[address] = (identity.id, queue)
          queue.claimedTasks.append(address)
        }
      }
      if let actor, registry.actorTurnOwners[actor] !== queue {
        registry.actorTurnOwners[actor] = queue
        queue.claimedActorTurns.append(actor)
      }
    }
  }

  /// The open queue the calling thread works for: the one whose job or work it runs, or the
  /// one that owns the task running here.
  func owningQueue() -> Queue? {
    if let owner = DriverContext.current?.owner { return owner }
    guard let task = RuntimeHooks.currentTask(), let current = RuntimeHooks.taskIdentity(task)
    else { return nil }
    return registry.read { registry in
      guard let known = registry.taskOwners[current.address], known.id == current.id,
        known.queue.isOpen
      else { return nil }
      return known.queue
    }
  }

  /// Notes that the task at `address`, just spawned by `queue`'s code, takes the scope's task
  /// executor as its preference as its first step (``ScopeTaskPreference``).
  func prefer(taskAt address: UInt, in queue: Queue) {
    guard let pointer = UnsafeRawPointer(bitPattern: address),
      let identity = RuntimeHooks.taskIdentity(pointer)
    else { return }
    queue.state.withLock { _ = $0.takingPreference.insert(identity) }
  }

  /// Notes, in the running task, a change of the scope's preference that the task did not
  /// have when it was created: `taking` it or giving it back. The hop the runtime makes for the
  /// change runs at once, as part of the job that made it; ``changedPreference(taking:)`` says
  /// when the change is over, wherever it ran. A task created with the preference changes
  /// nothing, and hops for none.
  func changingPreference(taking: Bool) {
    updatePreference { state, task in state.hopping[task] = taking ? .scopes : .asCreated }
  }

  /// The change ``changingPreference(taking:)`` noted is over: the task runs on, with the
  /// preference or without it.
  func changedPreference(taking: Bool) {
    updatePreference { state, task in
      state.hopping[task] = nil
      state.takingPreference.remove(task)
      if taking { state.preferring.insert(task) } else { state.preferring.remove(task) }
    }
  }

  private func updatePreference(_ update: (inout Queue.State, TaskIdentity) -> Void) {
    guard let pointer = RuntimeHooks.currentTask(),
      let task = RuntimeHooks.taskIdentity(pointer),
      !RuntimeHooks.hasTaskExecutorPreference(unsafeBitCast(pointer, to: UnownedJob.self)),
      let queue = owningQueue()
    else { return }
    queue.state.withLock { update(&$0, task) }
  }

  /// Where task creation cannot be watched: whether an actor's turn ran in `queue`, and the
  /// names of the first few such actors' types.
  func unwatchedActorTurns(_ queue: Queue) -> (ran: Bool, actors: [String]) {
    queue.state.withLock { ($0.ranUnwatchedActorTurn, $0.unwatchedActors) }
  }

  /// The names, where seen, of the tasks whose jobs ran in `queue` without the scope's
  /// preference, first seen first.
  func unpreferredTaskNames(_ queue: Queue) -> [String?] {
    queue.state.withLock { state in state.unpreferred.map { state.unpreferredNames[$0] } }
  }

  /// What `queue` may still hear from outside its driver: sleeps not yet ended, and whether
  /// any job has come from another thread.
  func outsideWork(_ queue: Queue) -> (pendingSleeps: Int, arrivals: Int) {
    queue.state.withLock { ($0.pendingSleeps, $0.outsideArrivals) }
  }

  /// Hands a job that is nobody's (or whose scope has closed) to the runtime.
  static func forward(_ job: UnownedJob, _ lane: JobLane) {
    switch lane {
    case .mainActor:
      if let main = RuntimeHooks.realMainExecutor { RuntimeHooks.enqueue(job, on: main) }
    case .pool: RuntimeHooks.enqueueGlobal(job)
    }
  }

  // MARK: Driving

  /// The jobs of `queue` that may run next, in enqueue order: the oldest main-actor job (the
  /// main actor runs its jobs in order) and every job for the pool.
  func runnable(_ queue: Queue) -> [ReadyJob] {
    queue.state.withLock { state in
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

  /// How many jobs `queue` has waiting.
  func count(_ queue: Queue) -> Int {
    queue.state.withLock { $0.count }
  }

  /// Runs `body` (a job of `queue`'s), recording what it enqueues and sets.
  func recordingEffects(of queue: Queue, _ body: () -> Void) -> JobEffects {
    queue.state.withLock { $0.effects = JobEffects() }
    body()
    return queue.state.withLock { state in
      defer { state.effects = nil }
      return state.effects ?? JobEffects()
    }
  }

  /// Takes the job `pick` chooses from `queue` (given the queue's jobs and the index of the
  /// first still waiting, it returns the index of one at or after it) and runs it on the
  /// calling thread. Returns `false`, with the queue marked asleep if `sleepIfEmpty`, when no
  /// job waits.
  func runNext(
    _ queue: Queue, sleepIfEmpty: Bool, pick: (_ jobs: [ReadyJob], _ head: Int) -> Int
  ) -> Bool {
    keepGlobalHook()
    let taken = queue.state.withLock { state -> (job: ReadyJob, executors: JobExecutors)? in
      guard state.head < state.jobs.count else {
        if sleepIfEmpty { state.isSleeping = true }
        return nil
      }
      let job = state.removeJob(at: pick(state.jobs, state.head))
      return (job, state.executors(for: job))
    }
    guard let taken else { return false }
    let context = DriverContext.current
    context?.beginJob(of: queue, lane: taken.job.lane)
    defer { context?.endJob() }
    var next: (job: ReadyJob, executors: JobExecutors)? = taken
    // A task that took or gave back the scope's preference, or ran with the scope's executor
    // standing in for the pool's, may hop only because of that: such a hop is part of this
    // job, as the runtime would run it on the same thread, however many there are. A
    // `Task.yield()` is not such a hop: it enqueues a job of its own, not the task, so it
    // stays a choice, and a task that yields in a loop waiting for another lets the other run.
    while let (job, executors) = next {
      let standsIn = job.lane == .pool && executors == .standIn
      if standsIn { queue.state.withLock { $0.standingIn = job.task } }
      Self.run(job, executors)
      next = queue.state.withLock { state in
        if standsIn { state.standingIn = nil }
        return state.takeRunAtOnce()
      }
    }
    return true
  }

  /// Runs a job under the executors the runtime would give it, with one difference: the job
  /// runs on a task executor, never as plain pool work, so the runtime cannot switch executors
  /// inside it. Every hop that changes executor then ends the job (the rules are in
  /// docs/suspension-points.md):
  /// - a task that prefers the scope's executor (every task the scope's code creates, where
  ///   task creation can be watched; everywhere, every task spawned through a provider in the
  ///   scope and the scope's own body) runs on it, on the main actor too: a hop that stays on
  ///   the same executor compares equal and runs on inline, as the runtime runs it;
  /// - a task with no preference for a moment only, or the runtime's own task that ends a
  ///   sleep, runs on the global pool's task executor, which the runtime takes for "no
  ///   preference", so a hop from the pool to the pool stays inline too; a hop onto an actor
  ///   is enqueued;
  /// - any other task with no preference (``JobExecutors/standIn``) runs its pool jobs on the
  ///   scope's executor, so its sleeps keep the scope's time; the hop back to the pool that
  ///   the runtime then makes runs at once, in the same job (see ``runNext(_:sleepIfEmpty:pick:)``);
  /// - an actor's turn runs on the scope's executor; the runtime's drain of the actor sets
  ///   each task's own preference as it runs it.
  private static func run(_ taken: ReadyJob, _ executors: JobExecutors) {
    switch (taken.lane, executors) {
    case (.mainActor, .scopes):
      taken.job.runSynchronously(
        isolatedTo: ScopeMainExecutor.shared.asUnownedSerialExecutor(),
        taskExecutor: ScopePoolExecutor.shared.asUnownedTaskExecutor())
    case (.mainActor, _):
      taken.job.runSynchronously(on: ScopeMainExecutor.shared.asUnownedSerialExecutor())
    case (.pool, .asCreated) where taken.task != nil:
      taken.job.runSynchronously(on: ScopePoolExecutor.globalPool)
    case (.pool, _):
      taken.job.runSynchronously(on: ScopePoolExecutor.shared.asUnownedTaskExecutor())
    }
  }

  /// Marks `queue` asleep if no job waits, for `sleep` to wait on; returns whether it did.
  func sleepIfIdle(_ queue: Queue) -> Bool {
    queue.state.withLock { state in
      guard state.count == 0 else { return false }
      state.isSleeping = true
      return true
    }
  }

  /// Sleeps until a job for `queue` arrives from another thread or `deadline` passes; the
  /// queue must have been marked asleep. Returns whether a job may have come.
  func sleep(_ queue: Queue, until deadline: ContinuousClock.Instant) -> Bool {
    let remaining = ContinuousClock.now.duration(to: deadline)
    guard remaining > .zero else {
      queue.state.withLock { $0.isSleeping = false }
      return false
    }
    let woken = queue.semaphore.wait(nanoseconds: remaining.dispatchNanoseconds)
    if !woken { queue.state.withLock { $0.isSleeping = false } }
    return woken
  }

  /// Waits, holding no thread, until a job for `queue` arrives from another thread or
  /// `deadline` passes; returns at once if a job is waiting.
  func wait(for queue: Queue, until deadline: ContinuousClock.Instant) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let number = queue.state.withLock { state -> Int? in
        guard state.count == 0 else { return nil }
        state.isSleeping = true
        state.waiter = continuation
        state.waits += 1
        return state.waits
      }
      guard let number else { return continuation.resume() }
      let left = max(ContinuousClock.now.duration(to: deadline), .zero).dispatchNanoseconds
      runLater(afterNanoseconds: left) {
        // Only the wait it was set for: a later one has a deadline of its own.
        let timedOut = queue.state.withLock { state -> CheckedContinuation<Void, Never>? in
          guard state.waits == number, let waiter = state.waiter else { return nil }
          state.waiter = nil
          state.isSleeping = false
          return waiter
        }
        timedOut?.resume()
      }
    }
  }

  /// Whether the calling thread works for an open scope right now: it runs one of a scope's
  /// jobs or starts a scope's work, or it runs a task a scope owns. A task created here is
  /// the scope's.
  func ownsCurrentContext() -> Bool {
    owningQueue() != nil
  }

  /// Whether main-actor code may run on the calling thread right now: it drives a scope and
  /// is not inside one of its pool jobs.
  func isMainActorThread() -> Bool {
    DriverContext.current?.isOnMainActor ?? false
  }
}
