import LockSupport
import TaskProviding

/// How a bounded wait ended.
enum WaitOutcome: Sendable {
  /// What the waiter waited for arrived, with what it brought (`()` when nothing).
  case value(any Sendable)
  /// The timeout passed first.
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
///
/// Not generic, and what a wait brings is `any Sendable`: one concrete type serves every kind
/// of wait, and the one waiter that hands a value through casts it back.
final class Waiter: Sendable {
  private struct State {
    var continuation: CheckedContinuation<WaitOutcome, Never>?
    var outcome: WaitOutcome?
  }

  private let state = Locked(State())

  /// Ends the wait with `outcome`, unless it has ended already.
  /// - Returns: Whether this call ended it.
  @discardableResult
  func resume(_ outcome: WaitOutcome) -> Bool {
    var ended = false
    var continuation: CheckedContinuation<WaitOutcome, Never>?
    state.withLock { state in
      if case .none = state.outcome {
        state.outcome = outcome
        continuation = state.continuation
        state.continuation = nil
        ended = true
      }
    }
    if let continuation { continuation.resume(returning: outcome) }
    return ended
  }

  /// Suspends the caller until the wait ends, on the caller's own isolation, so a waiter
  /// resumed by work on the same actor continues there without a thread switch.
  ///
  /// - Parameters:
  ///   - timeout: Bounds a failure only: it ends the wait with `.timedOut`.
  ///   - isolation: The caller's isolation, kept across the suspension.
  func wait(
    timeout: Duration, isolation: isolated (any Actor)? = #isolation
  ) async -> WaitOutcome {
    let deadline = Deadlines.shared.schedule(after: timeout) { [self] in
      resume(.timedOut)
    }
    defer { Deadlines.shared.cancel(deadline) }
    return await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: isolation) {
          (continuation: CheckedContinuation<WaitOutcome, Never>) in
          var ended: WaitOutcome?
          state.withLock { state in
            if let outcome = state.outcome {
              ended = outcome
            } else {
              state.continuation = continuation
            }
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
/// (the usual case) drops its entry's action; the timer never fires for it.
final class Deadlines: Sendable {
  /// The process's timer.
  static let shared = Deadlines()

  /// One registration: when, and its action until it runs or is cancelled. A class, so a
  /// cancellation reaches it directly rather than through a table keyed by id, which a debug
  /// build hashes through the standard library's generic code on every wait.
  fileprivate final class Entry: @unchecked Sendable {
    // Read and written only under the owning `Deadlines`' lock.
    let deadline: UInt64
    @exclusivity(unchecked) var action: (@Sendable () -> Void)?

    init(deadline: UInt64, action: @escaping @Sendable () -> Void) {
      self.deadline = deadline
      self.action = action
    }
  }

  /// A registration, to cancel it.
  struct Token: Sendable {
    fileprivate let entry: Entry
  }

  private struct State {
    /// How many entries still have their action.
    var live = 0
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
      while !heap.isEmpty, heap[0].action == nil { _ = popMin() }
    }

    /// Rebuilds the heap from live entries when cancelled ones dominate it, so a long run of
    /// successful waits does not grow it.
    mutating func compactIfNeeded() {
      guard heap.count > 64, heap.count > 4 * live else { return }
      let entries = heap
      heap = []
      for entry in entries where entry.action != nil { push(entry) }
    }
  }

  private let state = Locked(State())
  /// Re-armed only under `state`'s lock.
  private let timer = DeadlineTimer(label: "TaskProvidingTesting.deadlines")

  private init() {
    timer.start { [unowned self] in fire() }
  }

  /// Runs `action` once, on the timer's queue, after `duration`, unless cancelled first.
  func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> Token {
    let entry = Entry(deadline: Self.deadline(after: duration), action: action)
    // Re-arming happens under the lock, so it cannot interleave with `fire`'s re-arming and
    // leave the timer set for a later deadline than the earliest.
    state.withLock { state in
      state.live += 1
      state.compactIfNeeded()
      state.push(entry)
      var earlier = true
      if let armed = state.armed, armed <= entry.deadline { earlier = false }
      if earlier {
        state.armed = entry.deadline
        timer.arm(at: entry.deadline)
      }
    }
    return Token(entry: entry)
  }

  /// Forgets a registration; its action will not run.
  func cancel(_ token: Token) {
    state.withLock { state in
      guard case .some = token.entry.action else { return }
      token.entry.action = nil
      state.live -= 1
    }
  }

  private func fire() {
    let now = DeadlineTimer.now
    // A process stopped at a breakpoint finds its bounds past due once it runs again: while a
    // debugger is attached they wait, checked again each second, rather than fail the test.
    let isDue = state.withLock { state in
      state.dropCancelledTop()
      return state.heap.first.map { $0.deadline <= now } ?? false
    }
    if isDue, DebuggerPresence.isAttached {
      DebuggerPresence.noteHeldBound()
      state.withLock { state in
        let later = now + 1_000_000_000
        state.armed = later
        timer.arm(at: later)
      }
      return
    }
    let due = state.withLock { state -> [@Sendable () -> Void] in
      var due: [@Sendable () -> Void] = []
      state.dropCancelledTop()
      while !state.heap.isEmpty, state.heap[0].deadline <= now {
        let entry = state.popMin()
        if let action = entry.action {
          due.append(action)
          entry.action = nil
          state.live -= 1
        }
        state.dropCancelledTop()
      }
      state.armed = state.heap.isEmpty ? nil : state.heap[0].deadline
      timer.arm(at: state.armed)
      return due
    }
    for action in due { action() }
  }

  /// Every timeout of the module is scaled here, once: see ``TimeoutScale``.
  private static func deadline(after duration: Duration) -> UInt64 {
    let now = DeadlineTimer.now
    return now + UInt64(TimeoutScale.scaled(duration).dispatchNanoseconds)
  }
}
