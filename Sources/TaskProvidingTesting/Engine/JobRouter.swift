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

  /// Registers `scope`, just opened on the calling thread; the first scope installs the
  /// hooks.
  func register(_ scope: JobScope) {
    _ = RuntimeHooks.realMainExecutor
    registry.write { registry in
      let first = registry.openCount == 0
      registry.openCount += 1
      scope.isOpen = true
      scope.clearingsAtOpen = registry.clearings
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
  }

  /// Forgets `scope`, closing, and its tasks; the last scope puts back the hooks it found.
  /// Returns `false` when another owner (`withMainSerialExecutor`,
  /// `uncheckedUseMainSerialExecutor = false`) cleared the global hook while the scope was
  /// open, so that some of the scope's pool jobs may have run outside it.
  func unregister(_ scope: JobScope) -> Bool {
    keepGlobalHook()
    // A scope whose jobs all reached it through its executors lost none while the slot was
    // empty; one that was given jobs through the global hook may have.
    let cleared = registry.read { $0.clearings != scope.clearingsAtOpen }
    let hookHeld = !cleared || scope.state.withLock { $0.globalHookArrivals == 0 }
    registry.write { registry in
      if scope.isOpen {
        scope.isOpen = false
        registry.openCount -= 1
      }
      for address in scope.claimedTasks where registry.taskOwners[address]?.scope === scope {
        registry.taskOwners[address] = nil
      }
      for address in scope.claimedActorTurns where registry.actorTurnOwners[address] === scope {
        registry.actorTurnOwners[address] = nil
      }
      scope.claimedTasks = []
      scope.claimedActorTurns = []
      if registry.openCount == 0 {
        RuntimeHooks.global?.pointee = registry.previousGlobal
        RuntimeHooks.mainExecutor?.pointee = registry.previousMain
        Self.chain(nil)
      }
    }
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

  private static let toldOfOtherOwner = OnceFlag()

  /// Says once, on standard error, that another owner wrote the hook beside a scope.
  private static func noteOtherOwner(cleared: Bool) {
    let first = toldOfOtherOwner.raise()
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
    let found = registry.read { registry -> (scope: JobScope, claim: Bool)? in
      guard registry.openCount > 0 else { return nil }
      if let identity, let known = registry.taskOwners[address], known.id == identity.id {
        return (known.scope, false)
      }
      var owner = DriverContext.current?.owner
      if case .none = owner, let current, let known = registry.taskOwners[current.address],
        known.id == current.id
      {
        owner = known.scope
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
    guard let (scope, claim) = found else { return .foreign }
    if claim { self.claim(address, identity: identity, actor: actor, for: scope) }
    let outside = !fromSleep && DriverContext.current?.owner !== scope
    let queued = scope.accept(
      job, lane: lane, task: identity, actor: actor, enqueuer: current, outside: outside,
      fromSleep: fromSleep, fromGlobalHook: fromGlobalHook)
    return queued ? .queued : .foreign
  }

  /// Records that the task or actor turn at `address` is `scope`'s from now on.
  private func claim(
    _ address: UInt, identity: TaskIdentity?, actor: UInt?, for scope: JobScope
  ) {
    registry.write { registry in
      guard scope.isOpen else { return }
      if let identity {
        var isNew = true
        if let known = registry.taskOwners[address], known.id == identity.id { isNew = false }
        if isNew {
          registry.taskOwners[address] = (identity.id, scope)
          scope.claimedTasks.append(address)
        }
      }
      if let actor, registry.actorTurnOwners[actor] !== scope {
        registry.actorTurnOwners[actor] = scope
        scope.claimedActorTurns.append(actor)
      }
    }
  }

  /// The open scope the calling thread works for: the one whose job or work it runs, or the
  /// one that owns the task running here.
  func owningScope() -> JobScope? {
    if let owner = DriverContext.current?.owner { return owner }
    guard let task = RuntimeHooks.currentTask(), let current = RuntimeHooks.taskIdentity(task)
    else { return nil }
    return registry.read { registry in
      guard let known = registry.taskOwners[current.address], known.id == current.id,
        known.scope.isOpen
      else { return nil }
      return known.scope
    }
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

  private func updatePreference(_ update: (inout ScopeState, TaskIdentity) -> Void) {
    guard let pointer = RuntimeHooks.currentTask(),
      let task = RuntimeHooks.taskIdentity(pointer),
      !RuntimeHooks.hasTaskExecutorPreference(unsafeBitCast(pointer, to: UnownedJob.self)),
      let scope = owningScope()
    else { return }
    scope.state.withLock { update(&$0, task) }
  }

  /// Hands a job that is nobody's (or whose scope has closed) to the runtime.
  static func forward(_ job: UnownedJob, _ lane: JobLane) {
    switch lane {
    case .mainActor:
      if let main = RuntimeHooks.realMainExecutor { RuntimeHooks.enqueue(job, on: main) }
    case .pool: RuntimeHooks.enqueueGlobal(job)
    }
  }

  /// Whether the calling thread works for an open scope right now: it runs one of a scope's
  /// jobs or starts a scope's work, or it runs a task a scope owns. A task created here is
  /// the scope's.
  func ownsCurrentContext() -> Bool {
    owningScope() != nil
  }

  /// Whether main-actor code may run on the calling thread right now: it drives a scope and
  /// is not inside one of its pool jobs.
  func isMainActorThread() -> Bool {
    DriverContext.current?.isOnMainActor ?? false
  }
}
