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
/// Every operation is O(1) in the number of finished tasks (the pending list and the waiter
/// list hold only what is still open), so a long test does not slow later waits down.
///
/// Per-task state lives in arrays indexed by the task's index, and the pending tasks form a
/// list through them, rather than in sets and dictionaries keyed by index: indexes are dense
/// and only grow, so an array is the whole table, and every spawn of every test hashes
/// nothing.
final class TaskLedger: Sendable {
  /// What the ledger knows of one task beyond its record.
  private struct Entry {
    /// The handle of an unfinished task, once known; released as it finishes.
    var handle: (any CancellableTask)?
    /// A cancellation asked for before the handle was known.
    var cancelRequested = false
    /// Named by a failure already (a thrown wait error or a reported issue), so a scope's
    /// leak check does not repeat it.
    var reported = false
    /// The pending tasks before and after this one, while it is pending; -1 for none.
    var previousPending = -1
    var nextPending = -1
  }

  private struct State {
    var records: [TaskRecord] = []
    /// One per record, by index.
    var entries: [Entry] = []
    var pendingCount = 0
    /// Pending tasks that are not held: scheduled or running.
    var runningCount = 0
    /// Running tasks no failure has named yet: what `.settled` waits to be none.
    var runningUnreported = 0
    /// The first and last pending task, in index order; -1 when none is pending.
    var firstPending = -1
    var lastPending = -1
    var nextWaiter = 0
    /// Only waiters still waiting; usually one, so scanning them on each finish is cheap.
    var waiters: [(id: Int, condition: Condition, waiter: Waiter)] = []
    /// Each task's index by its address while it is pending, to name a job by its task.
    var addresses: [UInt: Int] = [:]

    /// The pending tasks' indices, in index order.
    var pendingIndices: [Int] {
      var indices: [Int] = []
      var index = firstPending
      while index >= 0 {
        indices.append(index)
        index = entries[index].nextPending
      }
      return indices
    }

    /// A record with the live cancellation state of a pending task.
    func snapshot(_ index: Int) -> TaskRecord {
      var record = records[index]
      if let handle = entries[index].handle { record.isCancelled = handle.isCancelled }
      return record
    }

    func holds(_ condition: Condition) -> Bool {
      switch condition {
      case .idle: pendingCount == 0
      case .noneRunning: runningCount == 0
      case .finished(let index): records[index].status == .finished
      case .held(let count): pendingCount - runningCount >= count
      case .settled: runningUnreported == 0
      }
    }

    /// Adds a task, held or running, at the end of the pending list.
    mutating func add(_ record: TaskRecord) {
      let index = records.count
      records.append(record)
      var entry = Entry()
      entry.previousPending = lastPending
      entries.append(entry)
      if lastPending >= 0 { entries[lastPending].nextPending = index } else { firstPending = index }
      lastPending = index
      pendingCount += 1
      if record.status == .running {
        runningCount += 1
        runningUnreported += 1
      }
    }

    mutating func markRunning(_ index: Int) {
      guard records[index].status == .held else { return }
      records[index].status = .running
      runningCount += 1
      if !entries[index].reported { runningUnreported += 1 }
    }

    /// Marks a pending task finished and takes it off the pending list.
    mutating func finish(_ index: Int, cancelled: Bool) {
      guard records[index].status != .finished else { return }
      let wasRunning = records[index].status == .running
      records[index].status = .finished
      records[index].isCancelled = cancelled
      pendingCount -= 1
      if wasRunning {
        runningCount -= 1
        if !entries[index].reported { runningUnreported -= 1 }
      }
      let (previous, next) = (entries[index].previousPending, entries[index].nextPending)
      if previous >= 0 { entries[previous].nextPending = next } else { firstPending = next }
      if next >= 0 { entries[next].previousPending = previous } else { lastPending = previous }
      if let handle = entries[index].handle { addresses[handle.address] = nil }
      entries[index] = Entry()
    }

    mutating func markReported(_ index: Int) {
      guard !entries[index].reported else { return }
      entries[index].reported = true
      if records[index].status == .running { runningUnreported -= 1 }
    }

    /// Removes and returns the waiters whose condition now holds.
    mutating func takeReadyWaiters() -> [Waiter] {
      guard !waiters.isEmpty else { return [] }
      var ready: [Waiter] = []
      var position = 0
      while position < waiters.count {
        if holds(waiters[position].condition) {
          ready.append(waiters[position].waiter)
          waiters.remove(at: position)
        } else {
          position += 1
        }
      }
      return ready
    }

    mutating func removeWaiter(_ id: Int) {
      var position = 0
      while position < waiters.count {
        if waiters[position].id == id {
          waiters.remove(at: position)
          return
        }
        position += 1
      }
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
      state.add(
        TaskRecord(
          index: index, kind: spawn.kind, name: spawn.name, priority: spawn.priority,
          location: spawn.location, status: held ? .held : .running, isCancelled: false))
      return (index, held ? state.takeReadyWaiters() : [])
    }
    beforeWaking(index)
    for waiter in ready { waiter.resume(.value(())) }
    return index
  }

  /// Stores the handle of a task that may already have finished on another thread.
  func attach(_ handle: some CancellableTask, to index: Int) {
    let cancelNow = state.withLock { state -> Bool in
      guard state.records[index].status != .finished else { return false }
      state.entries[index].handle = handle
      state.addresses[handle.address] = index
      guard state.entries[index].cancelRequested else { return false }
      state.entries[index].cancelRequested = false
      return true
    }
    if cancelNow { handle.cancel() }
  }

  func markRunning(_ index: Int) {
    state.withLock { $0.markRunning(index) }
  }

  func finish(_ index: Int, cancelled: Bool) {
    let ready = state.withLock { state -> [Waiter] in
      state.finish(index, cancelled: cancelled)
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
      var index = state.firstPending
      while index >= 0 {
        if let handle = state.entries[index].handle,
          handle.isCancelled != records[index].isCancelled
        {
          records[index].isCancelled = handle.isCancelled
        }
        index = state.entries[index].nextPending
      }
      return records
    }
  }

  var pendingCount: Int { state.withLock { $0.pendingCount } }

  var pendingRecords: [TaskRecord] {
    state.withLock { state in state.pendingIndices.map(state.snapshot) }
  }

  var runningRecords: [TaskRecord] {
    state.withLock { state in
      state.pendingIndices.filter { state.records[$0].status == .running }.map(state.snapshot)
    }
  }

  func record(_ index: Int) -> TaskRecord {
    state.withLock { $0.snapshot(index) }
  }

  /// The index of the pending task at this address, if there is one.
  func index(ofTaskAt address: UInt) -> Int? {
    state.withLock { $0.addresses[address] }
  }

  // MARK: Cancelling

  func cancel(_ indices: some Sequence<Int>) {
    let handles = state.withLock { state in
      indices.compactMap { index -> (any CancellableTask)? in
        guard state.records[index].status != .finished else { return nil }
        guard let handle = state.entries[index].handle else {
          state.entries[index].cancelRequested = true
          return nil
        }
        return handle
      }
    }
    for handle in handles { handle.cancel() }
  }

  func cancelAll() {
    cancel(state.withLock { $0.pendingIndices })
  }

  /// Marks these tasks as named by a failure (a thrown wait error or a reported issue), so
  /// a scope's leak check neither waits for them nor names them again.
  func markReported(_ records: [TaskRecord]) {
    state.withLock { state in
      for record in records { state.markReported(record.index) }
    }
  }

  /// Ends the ledger's watch: cancels every pending task and returns those no failed wait
  /// has reported yet, marking them reported. One lock, and nothing to do when every task
  /// has finished, which is how a passing test ends.
  func takeLeaks() -> [TaskRecord] {
    let (leaks, handles) = state.withLock { state -> ([TaskRecord], [any CancellableTask]) in
      guard state.pendingCount > 0 else { return ([], []) }
      let pending = state.pendingIndices
      let leaks = pending.filter { !state.entries[$0].reported }.map(state.snapshot)
      var handles: [any CancellableTask] = []
      for index in pending {
        state.markReported(index)
        if let handle = state.entries[index].handle {
          handles.append(handle)
        } else {
          state.entries[index].cancelRequested = true
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
      state.pendingIndices.first { (state.entries[$0].handle as? Handle) == task }
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
    let registered = state.withLock { state -> (Int, Waiter)? in
      guard !state.holds(condition) else { return nil }
      state.nextWaiter += 1
      let waiter = Waiter()
      state.waiters.append((state.nextWaiter, condition, waiter))
      return (state.nextWaiter, waiter)
    }
    guard let (id, waiter) = registered else { return true }
    if case .value = await waiter.wait(timeout: timeout) { return true }
    return state.withLock { state in
      state.removeWaiter(id)
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
