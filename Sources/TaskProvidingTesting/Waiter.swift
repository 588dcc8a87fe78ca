import Dispatch
import LockSupport
import TaskProviding

/// How a bounded wait ended.
enum WaitOutcome<Value: Sendable>: Sendable {
  /// What the waiter waited for arrived.
  case value(Value)
  /// The failure bound passed first.
  case timedOut
  /// The waiting task was cancelled first.
  case cancelled
}

/// One suspended wait, ended exactly once by whichever comes first: the event it waits for,
/// its deadline, or the cancellation of the waiting task.
///
/// Producers call ``resume(_:)`` and learn from its result whether they ended the wait; a
/// `false` means the waiter had already given up, so the producer keeps what it offered
/// (a call, for example) for the next waiter instead of losing it.
final class Waiter<Value: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<WaitOutcome<Value>, Never>?
    var outcome: WaitOutcome<Value>?
  }

  private let state = Locked(State())

  /// Ends the wait with `outcome`, unless it has ended already.
  /// - Returns: Whether this call ended it.
  @discardableResult
  func resume(_ outcome: WaitOutcome<Value>) -> Bool {
    let continuation = state.withLock { state -> CheckedContinuation<WaitOutcome<Value>, Never>?? in
      guard state.outcome == nil else { return .none }
      state.outcome = outcome
      defer { state.continuation = nil }
      return .some(state.continuation)
    }
    guard let continuation else { return false }
    continuation?.resume(returning: outcome)
    return true
  }

  /// Suspends the caller until the wait ends, on the caller's own isolation, so a waiter
  /// resumed by work on the same actor continues there without a thread switch.
  ///
  /// - Parameters:
  ///   - timeout: Bounds a failure only: it ends the wait with `.timedOut`.
  ///   - isolation: The caller's isolation, kept across the suspension.
  func wait(
    timeout: Duration, isolation: isolated (any Actor)? = #isolation
  ) async -> WaitOutcome<Value> {
    let deadline = Deadlines.shared.schedule(after: timeout) { [self] in
      resume(.timedOut)
    }
    defer { Deadlines.shared.cancel(deadline) }
    return await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: isolation) {
          (continuation: CheckedContinuation<WaitOutcome<Value>, Never>) in
          let ended = state.withLock { state -> WaitOutcome<Value>? in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
          }
          if let ended { continuation.resume(returning: ended) }
        }
      },
      onCancel: { resume(.cancelled) },
      isolation: isolation)
  }
}

/// The one timer every bounded wait in the module shares.
///
/// A wait registers its deadline here instead of starting a timer task of its own: a
/// registration is a lock and a heap insertion, and the single dispatch timer is re-armed
/// only when a new deadline is earlier than the one it is armed for. A wait that succeeds
/// (the usual case) removes its entry; the timer never fires for it.
final class Deadlines: Sendable {
  /// The process's timer.
  static let shared = Deadlines()

  /// A registration, to cancel it.
  struct Token: Sendable {
    fileprivate let id: UInt64
  }

  private struct Entry {
    let deadline: UInt64
    let id: UInt64
  }

  private struct State {
    var nextID: UInt64 = 0
    /// Live registrations only.
    var actions: [UInt64: @Sendable () -> Void] = [:]
    /// A min-heap on `deadline`; entries whose action is gone are dropped when they surface.
    var heap: [Entry] = []
    /// The deadline the timer is armed for, if any.
    var armed: UInt64?

    mutating func push(_ entry: Entry) {
      heap.append(entry)
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard heap[child].deadline < heap[parent].deadline else { break }
        heap.swapAt(child, parent)
        child = parent
      }
    }

    mutating func popMin() -> Entry {
      let top = heap[0]
      let last = heap.removeLast()
      if !heap.isEmpty {
        heap[0] = last
        var parent = 0
        while true {
          let left = 2 * parent + 1
          let right = left + 1
          var smallest = parent
          if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
          if right < heap.count, heap[right].deadline < heap[smallest].deadline {
            smallest = right
          }
          guard smallest != parent else { break }
          heap.swapAt(parent, smallest)
          parent = smallest
        }
      }
      return top
    }

    /// Drops cancelled entries from the top, so `heap.first` is the earliest live deadline.
    mutating func dropCancelledTop() {
      while let top = heap.first, actions[top.id] == nil { _ = popMin() }
    }

    /// Rebuilds the heap from live entries when cancelled ones dominate it, so a long run of
    /// successful waits does not grow it.
    mutating func compactIfNeeded() {
      guard heap.count > 64, heap.count > 4 * actions.count else { return }
      let live = heap.filter { actions[$0.id] != nil }
      heap = []
      for entry in live { push(entry) }
    }
  }

  private let state = Locked(State())
  /// Dispatch sources are thread-safe; this one is set once and re-armed under `state`'s lock.
  nonisolated(unsafe) private let timer: any DispatchSourceTimer

  private init() {
    timer = DispatchSource.makeTimerSource(
      queue: DispatchQueue(label: "TaskProvidingTesting.deadlines"))
    timer.setEventHandler { [unowned self] in fire() }
    timer.schedule(deadline: .distantFuture)
    timer.activate()
  }

  /// Runs `action` once, on the timer's queue, after `duration`, unless cancelled first.
  func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> Token {
    let deadline = Self.deadline(after: duration)
    // Re-arming happens under the lock, so it cannot interleave with `fire`'s re-arming and
    // leave the timer set for a later deadline than the earliest.
    return state.withLock { state in
      state.nextID &+= 1
      let id = state.nextID
      state.actions[id] = action
      state.compactIfNeeded()
      state.push(Entry(deadline: deadline, id: id))
      if state.armed.map({ deadline < $0 }) ?? true {
        state.armed = deadline
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline))
      }
      return Token(id: id)
    }
  }

  /// Forgets a registration; its action will not run.
  func cancel(_ token: Token) {
    state.withLock { _ = $0.actions.removeValue(forKey: token.id) }
  }

  private func fire() {
    let now = DispatchTime.now().uptimeNanoseconds
    let due = state.withLock { state -> [@Sendable () -> Void] in
      var due: [@Sendable () -> Void] = []
      state.dropCancelledTop()
      while let top = state.heap.first, top.deadline <= now {
        _ = state.popMin()
        if let action = state.actions.removeValue(forKey: top.id) { due.append(action) }
        state.dropCancelledTop()
      }
      state.armed = state.heap.first?.deadline
      timer.schedule(
        deadline: state.armed.map { DispatchTime(uptimeNanoseconds: $0) } ?? .distantFuture)
      return due
    }
    for action in due { action() }
  }

  /// Every failure bound of the module is scaled here, once: see ``FailureBoundScale``.
  private static func deadline(after duration: Duration) -> UInt64 {
    let now = DispatchTime.now().uptimeNanoseconds
    return now + UInt64(FailureBoundScale.scaled(duration).dispatchNanoseconds)
  }
}
