import LockSupport

/// The `async` explorations of one process take turns, one at a time, in the order they
/// asked.
///
/// An exploration is CPU-bound from start to end, in its child process and in the test's, so
/// two at once on the same cores finish no sooner; they only slow every other test running
/// beside them, whose failure bounds are in real time. One at a time, each also keeps its
/// schedules apart from another's: no other exploration's scope opens while one of its
/// schedules waits for work outside its scope. Ordinary tests, schedulers included, never
/// wait for a turn; and the main actor is given back between schedules as before.
final class ExplorationTurns: Sendable {
  static let shared = ExplorationTurns()

  private struct State {
    var isTaken = false
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())

  /// Whether the current task runs inside a turn: an exploration started by a scenario, or
  /// by a test inside another's turn, does not wait for the turn it is part of.
  @TaskLocal private static var holdsTurn = false

  /// Runs `work` in a turn of its own, once every turn asked for before has ended.
  @MainActor
  func taking<R>(_ work: @MainActor () async -> R) async -> R {
    if Self.holdsTurn { return await work() }
    await take()
    defer { give() }
    return await Self.$holdsTurn.withValue(true) { await work() }
  }

  private func take() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let grantedNow = state.withLock { state -> Bool in
        guard state.isTaken else {
          state.isTaken = true
          return true
        }
        state.waiting.append(continuation)
        return false
      }
      if grantedNow { continuation.resume() }
    }
  }

  private func give() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiting.isEmpty else {
        state.isTaken = false
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}
