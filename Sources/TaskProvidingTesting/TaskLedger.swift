import LockSupport
import TaskProviding

/// A handle whose result type has been erased, so tasks of any type can be cancelled together.
protocol CancellableTask: Sendable {
  func cancel()
  var isCancelled: Bool { get }
  /// The task's address, as the runtime's jobs for it carry it.
  var address: UInt { get }
}

extension Task: CancellableTask {
  /// A `Task` holds one reference, to the runtime's task: its bits are that task's address.
  var address: UInt { unsafeBitCast(self, to: UInt.self) }
}

/// The bookkeeping both testing providers share: records, pending tasks and their waiters.
///
/// Every operation is O(1) in the number of finished tasks (the pending set and the waiter
/// lists hold only what is still open), so a long test does not slow later waits down.
final class TaskLedger: Sendable {
  private struct State {
    var records: [TaskRecord] = []
    /// Handles of unfinished tasks only; released as each finishes.
    var handles: [Int: any CancellableTask] = [:]
    var pending: Set<Int> = []
    /// Pending tasks that are not held: scheduled or running.
    var running: Set<Int> = []
    var cancelRequested: Set<Int> = []
    var nextWaiter = 0
    /// Only waiters still waiting; usually one, so scanning them on each finish is cheap.
    var waiters: [Int: (Condition, Waiter<Void>)] = [:]
    /// Tasks a failed wait has already reported, so a scope's leak check does not repeat them.
    var reported: Set<Int> = []
    /// Each task's index by its address while it is pending, to name a job by its task.
    var addresses: [UInt: Int] = [:]

    /// A record with the live cancellation state of a pending task.
    func snapshot(_ index: Int) -> TaskRecord {
      var record = records[index]
      if let handle = handles[index] { record.isCancelled = handle.isCancelled }
      return record
    }

    func holds(_ condition: Condition) -> Bool {
      switch condition {
      case .idle: pending.isEmpty
      case .noneRunning: running.isEmpty
      case .finished(let index): !pending.contains(index)
      case .held(let count): pending.count - running.count >= count
      case .settled: running.isSubset(of: reported)
      }
    }

    /// Removes and returns the waiters whose condition now holds.
    mutating func takeReadyWaiters() -> [Waiter<Void>] {
      guard !waiters.isEmpty else { return [] }
      var ready: [Waiter<Void>] = []
      for (id, (condition, waiter)) in waiters where holds(condition) {
        waiters[id] = nil
        ready.append(waiter)
      }
      return ready
    }
  }

  /// What a waiter waits for.
  enum Condition: Sendable {
    /// No task is pending.
    case idle
    /// No released task is still running; held ones may remain.
    case noneRunning
    /// The task with this index has finished.
    case finished(Int)
    /// At least this many tasks are held.
    case held(Int)
    /// Every task still running has been named by a failure already. Held tasks do not
    /// count: once the test's body has ended, nothing will release them.
    case settled
  }

  private let state = Locked(State())
  // MARK: Recording

  /// Records a spawn and returns its index. `beforeWaking` runs with the index before any
  /// waiter for held tasks is resumed, so a provider can hold the task where a woken test
  /// will look for it.
  func register(
    _ spawn: TaskSpawn, held: Bool, beforeWaking: (Int) -> Void = { _ in }
  ) -> Int {
    let (index, ready) = state.withLock { state in
      let index = state.records.count
      state.records.append(
        TaskRecord(
          index: index, kind: spawn.kind, name: spawn.name, priority: spawn.priority,
          location: spawn.location, status: held ? .held : .running, isCancelled: false))
      state.pending.insert(index)
      if !held { state.running.insert(index) }
      return (index, held ? state.takeReadyWaiters() : [])
    }
    beforeWaking(index)
    for waiter in ready { waiter.resume(.value(())) }
    return index
  }

  /// Stores the handle of a task that may already have finished on another thread.
  func attach(_ handle: some CancellableTask, to index: Int) {
    let cancelNow = state.withLock { state -> Bool in
      guard state.pending.contains(index) else { return false }
      state.handles[index] = handle
      state.addresses[handle.address] = index
      return state.cancelRequested.remove(index) != nil
    }
    if cancelNow { handle.cancel() }
  }

  func markRunning(_ index: Int) {
    state.withLock { state in
      state.records[index].status = .running
      state.running.insert(index)
    }
  }

  func finish(_ index: Int, cancelled: Bool) {
    let ready = state.withLock { state -> [Waiter<Void>] in
      state.records[index].status = .finished
      state.records[index].isCancelled = cancelled
      state.pending.remove(index)
      state.running.remove(index)
      if let handle = state.handles[index] { state.addresses[handle.address] = nil }
      state.handles[index] = nil
      state.cancelRequested.remove(index)
      return state.takeReadyWaiters()
    }
    for waiter in ready { waiter.resume(.value(())) }
  }

  // MARK: Reading

  var records: [TaskRecord] {
    state.withLock { state in
      // Shares the stored array, copying it only if a pending task was cancelled through its
      // handle since: invariants read this at every step of every schedule.
      var records = state.records
      for (index, handle) in state.handles where handle.isCancelled != records[index].isCancelled {
        records[index].isCancelled = handle.isCancelled
      }
      return records
    }
  }

  var pendingCount: Int { state.withLock { $0.pending.count } }

  var pendingRecords: [TaskRecord] {
    state.withLock { state in state.pending.sorted().map(state.snapshot) }
  }

  var runningRecords: [TaskRecord] {
    state.withLock { state in state.running.sorted().map(state.snapshot) }
  }

  func record(_ index: Int) -> TaskRecord {
    state.withLock { $0.snapshot(index) }
  }

  /// The address of the pending task with this index, as the runtime knows it, once its
  /// handle is known.
  func address(ofTask index: Int) -> UInt? {
    state.withLock { $0.handles[index]?.address }
  }

  /// Each of these tasks with the address of its handle, once known.
  func addresses(ofTasks indices: [Int]) -> [(index: Int, address: UInt?)] {
    guard !indices.isEmpty else { return [] }
    return state.withLock { state in indices.map { ($0, state.handles[$0]?.address) } }
  }

  /// The index of the pending task at this address, if there is one.
  func index(ofTaskAt address: UInt) -> Int? {
    state.withLock { $0.addresses[address] }
  }

  // MARK: Cancelling

  func cancel(_ indices: some Sequence<Int>) {
    let handles = state.withLock { state in
      indices.compactMap { index -> (any CancellableTask)? in
        guard state.pending.contains(index) else { return nil }
        guard let handle = state.handles[index] else {
          state.cancelRequested.insert(index)
          return nil
        }
        return handle
      }
    }
    for handle in handles { handle.cancel() }
  }

  func cancelAll() {
    cancel(state.withLock { Array($0.pending) })
  }

  /// Marks these tasks as named by a failure (a thrown wait error or a reported issue), so
  /// a scope's leak check neither waits for them nor names them again.
  func markReported(_ records: [TaskRecord]) {
    state.withLock { state in
      for record in records { state.reported.insert(record.index) }
    }
  }

  /// Ends the ledger's watch: cancels every pending task and returns those no failed wait
  /// has reported yet, marking them reported. One lock, and nothing to do when every task
  /// has finished, which is how a passing test ends.
  func takeLeaks() -> [TaskRecord] {
    let (leaks, handles) = state.withLock { state -> ([TaskRecord], [any CancellableTask]) in
      guard !state.pending.isEmpty else { return ([], []) }
      let leaks = state.pending.subtracting(state.reported).sorted().map(state.snapshot)
      state.reported.formUnion(state.pending)
      var handles: [any CancellableTask] = []
      for index in state.pending {
        if let handle = state.handles[index] {
          handles.append(handle)
        } else {
          state.cancelRequested.insert(index)
        }
      }
      return (leaks, handles)
    }
    for handle in handles { handle.cancel() }
    return leaks
  }

  /// The index of the pending task whose handle is `task`, if it is pending here.
  func pendingIndex<Handle: CancellableTask & Equatable>(of task: Handle) -> Int? {
    state.withLock { state in
      state.handles.first { ($0.value as? Handle) == task }?.key
    }
  }

  // MARK: Waiting

  /// Suspends until `condition` holds or `timeout` passes; returns whether it holds.
  ///
  /// It keeps the caller's isolation and starts no task: the waiter is resumed by `finish`
  /// or `register`, on whatever thread that runs, and continues on the caller's actor. The
  /// timeout is a registration with the shared deadline timer and bounds a failure only.
  func wait(
    for condition: Condition, timeout: Duration, isolation: isolated (any Actor)? = #isolation
  ) async -> Bool {
    let registered = state.withLock { state -> (Int, Waiter<Void>)? in
      guard !state.holds(condition) else { return nil }
      state.nextWaiter += 1
      let waiter = Waiter<Void>()
      state.waiters[state.nextWaiter] = (condition, waiter)
      return (state.nextWaiter, waiter)
    }
    guard let (id, waiter) = registered else { return true }
    if case .value = await waiter.wait(timeout: timeout) { return true }
    return state.withLock { state in
      state.waiters[id] = nil
      return state.holds(condition)
    }
  }

  /// Waits for `condition`; at the timeout throws ``PendingTasksError`` naming the tasks
  /// `stuck` lists, the wait and its call site. It reports nothing: the error is the one
  /// account of the failure, and a test that catches it stays green.
  func waitOrThrow(
    _ condition: Condition,
    timeout: Duration,
    stuck: (TaskLedger) -> [TaskRecord],
    wait: String,
    at location: TaskSourceLocation,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    if await self.wait(for: condition, timeout: timeout) { return }
    try Task.checkCancellation()
    let error = PendingTasksError(
      timeout: timeout, pending: stuck(self), wait: wait, location: location)
    markReported(error.pending)
    throw error
  }
}
