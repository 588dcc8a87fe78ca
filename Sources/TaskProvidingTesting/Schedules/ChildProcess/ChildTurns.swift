import LockSupport

/// How many children explore at once, across every exploration of the process: half the
/// processors, at least one. A child is the whole test binary started again, and Swift
/// Testing starts every test at once, so without a limit each exploration of a suite would
/// start its child in the same moment, and the tests beside them (their models, their
/// timeouts) would wait for processors the children took. A child's wait for a turn
/// holds no processor: the `async` forms of `explore` wait on a thread of the toolkit's own,
/// and the synchronous forms already hold the main actor throughout.
enum ChildTurns {
  /// The most children running at once.
  static let limit = max(ChildSpawn.processors / 2, 1)

  private struct State {
    var free = ChildTurns.limit
    /// Threads waiting for a turn, first come first served.
    var waiting: [DriverSemaphore] = []
  }

  private static let state = Locked(State())

  /// Runs `body`, which starts one child and waits for it, in a turn: it waits first while
  /// ``limit`` children are running.
  static func taking<R>(_ body: () throws -> R) rethrows -> R {
    let semaphore = state.withLock { state -> DriverSemaphore? in
      guard state.free == 0 else {
        state.free -= 1
        return nil
      }
      let semaphore = DriverSemaphore()
      state.waiting.append(semaphore)
      return semaphore
    }
    if let semaphore {
      // The turn is handed over by the child that ends; a child may take minutes.
      while !semaphore.wait(nanoseconds: 1_000_000_000) {}
    }
    defer {
      let next = state.withLock { state -> DriverSemaphore? in
        guard !state.waiting.isEmpty else {
          state.free += 1
          return nil
        }
        return state.waiting.removeFirst()
      }
      next?.signal()
    }
    return try body()
  }
}
