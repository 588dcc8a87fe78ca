// Takes the suite's explorations and schedulers one at a time on the main actor.

import Testing

/// Hands out turns on the main actor to the suite's long synchronous work (explorations,
/// schedulers run thousands of times), one turn at a time, in the order they are asked for.
///
/// An exploration holds the main actor while it runs, as any synchronous main-actor code
/// does. Two never run at once anyway; what this bounds is the queue: without it, every
/// exploring test would queue a turn on the main actor at once, and a test that waits for
/// the main actor (a render loop, a task on the main actor) would wait for all of them.
/// With it, such a test waits for at most one.
public actor MainActorTurns {
  /// The suite's one line of turns.
  public static let shared = MainActorTurns()

  private var isTaken = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// Runs `work` on the main actor once every turn asked for before it has ended.
  public static func take<T: Sendable>(_ work: @MainActor () -> T) async -> T {
    await shared.acquire()
    let result = await MainActor.run(body: work)
    await shared.release()
    return result
  }

  /// Runs `work` on the main actor once every turn asked for before it has ended.
  public static func take<T: Sendable>(_ work: @MainActor () throws -> T) async throws -> T {
    await shared.acquire()
    let result = await MainActor.run { Result { try work() } }
    await shared.release()
    return try result.get()
  }

  /// Runs `work` (a whole test) once every turn asked for before it has ended.
  static func taking(_ work: () async throws -> Void) async throws {
    await shared.acquire()
    do {
      try await work()
    } catch {
      await shared.release()
      throw error
    }
    await shared.release()
  }

  private func acquire() async {
    guard isTaken else {
      isTaken = true
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  private func release() {
    if waiting.isEmpty {
      isTaken = false
    } else {
      waiting.removeFirst().resume()
    }
  }
}

/// Runs each test of a suite in a turn of ``MainActorTurns``: for suites of short tests that
/// each hold the main actor for a while (a scheduler run many times, an exploration).
public struct MainActorTurnTrait: TestTrait, SuiteTrait, TestScoping {
  /// Applied to a suite, it covers each test in it.
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    test.isSuite || testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await MainActorTurns.taking(function)
  }
}

extension Trait where Self == MainActorTurnTrait {
  /// Each test takes its turn on the main actor after the suite's other long main-actor work.
  public static var mainActorTurn: Self { Self() }
}
