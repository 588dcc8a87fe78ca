import LockSupport
import TaskProviding

/// The gates a ``ManualTaskProvider`` holds its tasks at: each held task waits at its own
/// gate until the test opens it.
final class TaskGates: Sendable {
  private struct State {
    /// Held tasks in spawn order; `next` is the first one not yet released.
    var held: [Int] = []
    var next = 0
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    /// Tasks released before their operation reached the gate.
    var opened: Set<Int> = []
  }

  private let state = Locked(State())
  private let ledger: TaskLedger

  init(ledger: TaskLedger) {
    self.ledger = ledger
  }

  /// How many tasks are held.
  var heldCount: Int { state.withLock { $0.held.count - $0.next } }

  /// Holds the task with this index until it is released.
  func hold(_ index: Int) {
    state.withLock { $0.held.append(index) }
  }

  /// Suspends a held operation until `release` opens its gate. Deliberately ignores
  /// cancellation: a cancelled `Task { }` still runs its operation.
  ///
  /// It runs on the task's own isolation, so a released main-actor task goes on without a
  /// hop to the pool and back.
  func pass(_ index: Int, isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) {
      (continuation: CheckedContinuation<Void, Never>) in
      let open = state.withLock { state -> Bool in
        if state.opened.remove(index) != nil { return true }
        state.waiting[index] = continuation
        return false
      }
      if open { continuation.resume() }
    }
  }

  /// Opens the gate of the oldest held task.
  /// - Returns: The released task's index, or `nil` when none is held.
  func release() -> Int? {
    let released = state.withLock { state -> (Int, CheckedContinuation<Void, Never>?)? in
      guard state.next < state.held.count else { return nil }
      let index = state.held[state.next]
      state.next += 1
      // Drops released entries now and then, so a long test's list does not only grow.
      if state.next > 1024, state.next * 2 > state.held.count {
        state.held.removeFirst(state.next)
        state.next = 0
      }
      guard let continuation = state.waiting.removeValue(forKey: index) else {
        state.opened.insert(index)
        return (index, nil)
      }
      return (index, continuation)
    }
    guard let (index, continuation) = released else { return nil }
    // Marked running before it can run, so its own finish comes after and stands.
    ledger.markRunning(index)
    continuation?.resume()
    return index
  }
}
