import Dispatch
import TaskProviding

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Sends each job of the process where it belongs while a ``JobScope`` is open: a scope's own
/// jobs join that scope's queue, every other job goes on to the runtime's executors at once.
///
/// It sits behind the runtime's two process-wide hooks (the global enqueue, and the question
/// "which executor is the main actor's"), installed while at least one scope is open. A job
/// is a scope's own when:
/// - it is a task the scope has seen before (its address and its never-reused id match), so
///   a continuation resumed from any thread (a timer, a callback) comes back;
/// - or it is enqueued on a thread that drives the scope, while that thread runs one of the
///   scope's jobs or starts the scope's work: a task started there, a child task, an actor's
///   turn the scope's code asked for;
/// - or it is enqueued while one of the scope's tasks is running, on any thread;
/// - or it is the turn of an actor whose earlier turn was the scope's, enqueued from a thread
///   with no task (a callback resuming a task that waits on that actor).
/// Everything else is someone else's and is never held, reordered or run on a driver thread.
final class JobRouter: Sendable {
  static let shared = JobRouter()

  /// One scope's queue. Its fields change only under the router's lock.
  final class Queue: @unchecked Sendable {
    /// Jobs waiting to run, in enqueue order, from `head` on.
    var jobs: [ReadyJob] = []
    var head = 0
    var nextSequence = 0
    /// Whether the driver sleeps waiting for a job from another thread.
    var isSleeping = false
    let wake = DispatchSemaphore(value: 0)
    /// The scope's tasks and actors' turns, to forget them when it closes.
    var tasks: [UInt] = []
    var actorTurns: [UInt] = []
    var tracer: (@Sendable (JobEvent) -> Void)?

    var count: Int { jobs.count - head }

    func removeJob(at index: Int) -> ReadyJob {
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

  /// A thread that drives scopes: what it is doing right now decides whose its enqueues are.
  struct Driver {
    let thread: pthread_t
    var scopes = 0
    /// The scopes whose jobs it is running, innermost last, with each job's lane.
    var running: [(queue: Queue, lane: JobLane)] = []
    /// The scopes it is starting work for, outside any job (the body, an action).
    var adopting: [Queue] = []

    var owner: Queue? { adopting.last ?? running.last?.queue }
  }

  struct State {
    var open: [ObjectIdentifier: Queue] = [:]
    var taskOwners: [UInt: (id: UInt64, queue: Queue)] = [:]
    var actorTurnOwners: [UInt: Queue] = [:]
    var drivers: [Driver] = []
    var previousGlobal: RuntimeHooks.GlobalHook?
    var previousMain: RuntimeHooks.MainHook?

    func driverIndex(_ thread: pthread_t) -> Int? {
      drivers.firstIndex { pthread_equal($0.thread, thread) != 0 }
    }

    func isOpen(_ queue: Queue) -> Bool { open[ObjectIdentifier(queue)] != nil }
  }

  private let state = Locked(State())

  /// The runtime's kind of job for an actor's turn that lives inside the actor
  /// (`JobKind::DefaultActorInline`): its address stays the actor's while the actor lives.
  private static let actorTurnKind: UInt64 = 1

  // MARK: Scopes

  /// Opens `queue` for a scope driven by the calling thread; the first scope installs the
  /// hooks. `false` when the runtime lacks them.
  func open(_ queue: Queue) -> Bool {
    guard RuntimeHooks.isAvailable else { return false }
    _ = RuntimeHooks.realMainExecutor
    let thread = pthread_self()
    let first = state.withLock { state -> Bool in
      let first = state.open.isEmpty
      state.open[ObjectIdentifier(queue)] = queue
      if let index = state.driverIndex(thread) {
        state.drivers[index].scopes += 1
      } else {
        state.drivers.append(Driver(thread: thread, scopes: 1))
      }
      if first {
        state.previousGlobal = RuntimeHooks.global?.pointee
        state.previousMain = RuntimeHooks.mainExecutor?.pointee
      }
      return first
    }
    if first {
      RuntimeHooks.global?.pointee = Self.globalHook
      RuntimeHooks.mainExecutor?.pointee = Self.mainHook
    }
    return true
  }

  /// Closes `queue`: forgets its tasks, hands the jobs it never ran back to the runtime, and
  /// the last scope puts back the hooks it found, unless someone replaced them meanwhile.
  /// Returns `false` when the global hook was not the router's any more: something else
  /// (`withMainSerialExecutor`) replaced it while the scope was open, and some of the
  /// scope's pool jobs may have run outside it.
  @discardableResult
  func close(_ queue: Queue) -> Bool {
    let hookHeld = RuntimeHooks.global.map { Self.isOurs($0.pointee) } ?? false
    let thread = pthread_self()
    let (leftovers, last, previous) = state.withLock {
      state -> ([ReadyJob], Bool, (RuntimeHooks.GlobalHook?, RuntimeHooks.MainHook?)) in
      state.open[ObjectIdentifier(queue)] = nil
      for address in queue.tasks where state.taskOwners[address]?.queue === queue {
        state.taskOwners[address] = nil
      }
      for address in queue.actorTurns where state.actorTurnOwners[address] === queue {
        state.actorTurnOwners[address] = nil
      }
      if let index = state.driverIndex(thread) {
        state.drivers[index].scopes -= 1
        if state.drivers[index].scopes == 0 { state.drivers.remove(at: index) }
      }
      let leftovers = Array(queue.jobs[queue.head...])
      queue.jobs = []
      queue.head = 0
      return (leftovers, state.open.isEmpty, (state.previousGlobal, state.previousMain))
    }
    if last {
      if let global = RuntimeHooks.global, Self.isOurs(global.pointee) {
        global.pointee = previous.0
      }
      RuntimeHooks.mainExecutor?.pointee = previous.1
    }
    for entry in leftovers { Self.forward(entry.job, entry.lane) }
    return hookHeld
  }

  // Everyone else's job goes straight to the runtime, never through a hook that was there
  // before ours: such a hook (`withMainSerialExecutor`'s) may have been taken out since,
  // and would still send every other test's pool jobs to the main actor.
  private static let globalHook: RuntimeHooks.GlobalHook = { job, original in
    if case .foreign = JobRouter.shared.route(job, .pool) { original(job) }
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
    let thread = pthread_self()
    state.withLock { state in
      if let index = state.driverIndex(thread) { state.drivers[index].adopting.append(queue) }
    }
    defer {
      state.withLock { state in
        if let index = state.driverIndex(thread) { state.drivers[index].adopting.removeLast() }
      }
    }
    return try body()
  }

  func setTracer(_ queue: Queue, _ tracer: (@Sendable (JobEvent) -> Void)?) {
    state.withLock { _ in queue.tracer = tracer }
  }

  // MARK: Routing

  /// Where `route` put a job.
  enum Routing {
    /// In its scope's queue.
    case queued
    /// Nowhere: it is nobody's, and goes on to the runtime.
    case foreign
  }

  /// Queues `job` if it is a scope's own.
  func route(_ job: UnownedJob, _ lane: JobLane) -> Routing {
    let address = unsafeBitCast(job, to: UInt.self)
    let pointer = UnsafeRawPointer(bitPattern: address)!
    let identity = RuntimeHooks.taskIdentity(pointer)
    let current = RuntimeHooks.currentTask().flatMap(RuntimeHooks.taskIdentity)
    let isActorTurn = identity == nil && RuntimeHooks.jobKind(pointer) == Self.actorTurnKind
    let thread = pthread_self()
    let routed = state.withLock {
      state -> (Queue, ReadyJob, wake: Bool, tracer: (@Sendable (JobEvent) -> Void)?)? in
      guard !state.open.isEmpty else { return nil }
      var owner: Queue?
      if let identity, let known = state.taskOwners[address], known.id == identity.id {
        owner = known.queue
      }
      if owner == nil, let index = state.driverIndex(thread) {
        owner = state.drivers[index].owner

      }
      if owner == nil, let current, let known = state.taskOwners[current.address],
        known.id == current.id
      {
        owner = known.queue
      }
      if owner == nil, isActorTurn, current == nil {
        owner = state.actorTurnOwners[address]
      }
      guard let queue = owner, state.isOpen(queue) else { return nil }
      if let identity, state.taskOwners[address]?.id != identity.id {
        state.taskOwners[address] = (identity.id, queue)
        queue.tasks.append(address)
      }
      if isActorTurn, state.actorTurnOwners[address] !== queue {
        state.actorTurnOwners[address] = queue
        queue.actorTurns.append(address)
      }
      let entry = ReadyJob(sequence: queue.nextSequence, lane: lane, task: identity, job: job)
      queue.nextSequence += 1
      queue.jobs.append(entry)
      defer { queue.isSleeping = false }
      return (queue, entry, queue.isSleeping, queue.tracer)
    }
    guard let (queue, entry, wake, tracer) = routed else { return .foreign }
    if wake { queue.wake.signal() }
    if let tracer {
      tracer(
        JobEvent(
          sequence: entry.sequence, lane: lane, task: identity, enqueuedBy: current,
          enqueuerName: current == nil ? nil : RuntimeHooks.currentTaskName()))
    }
    return .queued
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
    state.withLock { _ in
      var runnable: [ReadyJob] = []
      var sawMain = false
      var index = queue.head
      while index < queue.jobs.count {
        let entry = queue.jobs[index]
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
    state.withLock { _ in queue.count }
  }

  /// Takes the job `pick` chooses from `queue` (given the queue's jobs and the index of the
  /// first still waiting, it returns the index of one at or after it) and runs it on the
  /// calling thread. Returns `false`, with the queue marked asleep if `sleepIfEmpty`, when no
  /// job waits.
  func runNext(
    _ queue: Queue, sleepIfEmpty: Bool, pick: (_ jobs: [ReadyJob], _ head: Int) -> Int
  ) -> Bool {
    let thread = pthread_self()
    let taken = state.withLock { state -> ReadyJob? in
      guard queue.head < queue.jobs.count else {
        if sleepIfEmpty { queue.isSleeping = true }
        return nil
      }
      let entry = queue.removeJob(at: pick(queue.jobs, queue.head))
      if let index = state.driverIndex(thread) {
        state.drivers[index].running.append((queue, entry.lane))
      }
      return entry
    }
    guard let taken else { return false }
    switch taken.lane {
    case .mainActor:
      taken.job.runSynchronously(on: ScopeMainExecutor.shared.asUnownedSerialExecutor())
    case .pool:
      // On a task executor rather than the generic one: the runtime then lets no task switch
      // executors inside the job, so every hop (onto an actor, off the main actor, back to
      // the pool) ends the job and becomes a job of its own, a place where another of the
      // scope's jobs may run first, as another thread of the pool could run it.
      taken.job.runSynchronously(on: ScopePoolExecutor.shared.asUnownedTaskExecutor())
    }
    state.withLock { state in
      if let index = state.driverIndex(thread) { state.drivers[index].running.removeLast() }
    }
    return true
  }

  /// Marks `queue` asleep if no job waits, for `sleep` to wait on; returns whether it did.
  func sleepIfIdle(_ queue: Queue) -> Bool {
    state.withLock { _ in
      guard queue.count == 0 else { return false }
      queue.isSleeping = true
      return true
    }
  }

  /// Sleeps until a job for `queue` arrives from another thread or `deadline` passes; the
  /// queue must have been marked asleep. Returns whether a job may have come.
  func sleep(_ queue: Queue, until deadline: ContinuousClock.Instant) -> Bool {
    let remaining = ContinuousClock.now.duration(to: deadline)
    guard remaining > .zero else {
      state.withLock { _ in queue.isSleeping = false }
      return false
    }
    let (seconds, attoseconds) = remaining.components
    let nanoseconds = min(Double(seconds) * 1e9 + Double(attoseconds) / 1e9, 3.2e16)
    let woken = queue.wake.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    if !woken { state.withLock { _ in queue.isSleeping = false } }
    return woken
  }

  /// Whether main-actor code may run on the calling thread right now: it drives a scope and
  /// is not inside one of its pool jobs.
  func isMainActorThread() -> Bool {
    let thread = pthread_self()
    return state.withLock { state in
      guard let index = state.driverIndex(thread) else { return false }
      return state.drivers[index].running.last?.lane != .pool
    }
  }
}

/// A job a scope owns, waiting to run.
struct ReadyJob: Sendable {
  /// Its place in the scope's enqueue order, from 0.
  let sequence: Int
  /// The queue it joined.
  let lane: JobLane
  /// The task it resumes, or `nil` for another kind of job (an actor's turn).
  let task: TaskIdentity?
  let job: UnownedJob
}

/// Which of a scope's queues a job joined.
enum JobLane: Sendable, Equatable {
  /// A job for the main actor, which runs its jobs in order.
  case mainActor
  /// A job for the global pool: a task's first step, nonisolated code, an actor's turn.
  case pool
}

/// What a tracing scope learns about each job it is given.
struct JobEvent: Sendable {
  let sequence: Int
  let lane: JobLane
  /// The task the job resumes, if it is one.
  let task: TaskIdentity?
  /// The task that was running when the job was enqueued, if any.
  let enqueuedBy: TaskIdentity?
  /// That task's name, if it has one.
  let enqueuerName: String?
}
