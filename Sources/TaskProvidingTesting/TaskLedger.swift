import Synchronization
import TaskProviding

/// A handle whose result type has been erased, so tasks of any type can be cancelled together.
protocol CancellableTask: Sendable {
  func cancel()
  var isCancelled: Bool { get }
}

extension Task: CancellableTask {}

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
    var cancelRequested: Set<Int> = []
    var nextWaiter = 0
    var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var taskWaiters: [Int: [Int: CheckedContinuation<Void, Never>]] = [:]
    /// Waiters whose cancellation arrived before they had registered.
    var abandoned: Set<Int> = []
  }

  /// What a waiter waits for.
  enum Condition: Sendable {
    case idle
    case finished(Int)
  }

  private let state = Mutex(State())

  // MARK: Recording

  func register(
    _ kind: TaskRecord.Kind, name: String?, priority: TaskPriority?,
    location: TaskSourceLocation, held: Bool
  ) -> Int {
    state.withLock { state in
      let index = state.records.count
      state.records.append(
        TaskRecord(
          index: index, kind: kind, name: name, priority: priority, location: location,
          status: held ? .held : .running, isCancelled: false))
      state.pending.insert(index)
      return index
    }
  }

  /// Stores the handle of a task that may already have finished on another thread.
  func attach(_ handle: some CancellableTask, to index: Int) {
    let cancelNow = state.withLock { state -> Bool in
      guard state.pending.contains(index) else { return false }
      state.handles[index] = handle
      return state.cancelRequested.remove(index) != nil
    }
    if cancelNow { handle.cancel() }
  }

  func markRunning(_ index: Int) {
    state.withLock { $0.records[index].status = .running }
  }

  func finish(_ index: Int, cancelled: Bool) {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.records[index].status = .finished
      state.records[index].isCancelled = cancelled
      state.pending.remove(index)
      state.handles[index] = nil
      state.cancelRequested.remove(index)
      var ready = Array((state.taskWaiters.removeValue(forKey: index) ?? [:]).values)
      if state.pending.isEmpty {
        ready += state.idleWaiters.values
        state.idleWaiters.removeAll()
      }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  // MARK: Reading

  var records: [TaskRecord] {
    state.withLock { state in
      var records = state.records
      for index in state.pending {
        records[index].isCancelled = state.handles[index]?.isCancelled ?? false
      }
      return records
    }
  }

  var pendingCount: Int { state.withLock { $0.pending.count } }

  var pendingRecords: [TaskRecord] {
    state.withLock { state in
      state.pending.sorted().map { index in
        var record = state.records[index]
        record.isCancelled = state.handles[index]?.isCancelled ?? false
        return record
      }
    }
  }

  func status(of index: Int) -> TaskRecord.Status {
    state.withLock { $0.records[index].status }
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

  // MARK: Waiting

  /// Suspends until `condition` holds or `timeout` passes; returns whether it holds.
  ///
  /// The waiter is a continuation resumed by `finish`, so it burns no CPU while it waits.
  func wait(for condition: Condition, timeout: Duration) async -> Bool {
    if isSatisfied(condition) { return true }
    return await withTaskGroup(of: Bool.self) { group in
      group.addTask { await self.suspend(until: condition); return true }
      group.addTask {
        // The timeout only bounds a failure; success never waits for it.
        try? await Task.sleep(for: timeout)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first || self.isSatisfied(condition)
    }
  }

  private func isSatisfied(_ condition: Condition) -> Bool {
    state.withLock { state in
      switch condition {
      case .idle: state.pending.isEmpty
      case .finished(let index): !state.pending.contains(index)
      }
    }
  }

  private func suspend(until condition: Condition) async {
    let waiter = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state -> Bool in
          if state.abandoned.remove(waiter) != nil { return true }
          switch condition {
          case .idle:
            if state.pending.isEmpty { return true }
            state.idleWaiters[waiter] = continuation
          case .finished(let index):
            if !state.pending.contains(index) { return true }
            state.taskWaiters[index, default: [:]][waiter] = continuation
          }
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
        switch condition {
        case .idle:
          if let continuation = state.idleWaiters.removeValue(forKey: waiter) {
            return continuation
          }
        case .finished(let index):
          if let continuation = state.taskWaiters[index]?.removeValue(forKey: waiter) {
            return continuation
          }
        }
        state.abandoned.insert(waiter)
        return nil
      }
      continuation?.resume()
    }
    state.withLock { _ = $0.abandoned.remove(waiter) }
  }
}
