// Takes the suite's explorations and schedulers one at a time on the main actor, and keeps
// them apart from the tests that need the main actor to answer promptly.

import Testing

/// Hands out turns on the main actor: exclusive ones to the suite's long synchronous work
/// (explorations, schedulers run thousands of times), one at a time, and shared ones to tests
/// that need the main actor to answer within their failure bounds (a render loop driven step
/// by step), any number at once but never during an exclusive turn. Turns are granted in the
/// order they are asked for, so neither kind waits forever.
///
/// An exploration holds the main actor while it runs, as any synchronous main-actor code
/// does. Two never run at once anyway; what this bounds is the queue: without it, every
/// exploring test would queue a turn on the main actor at once, and a test that waits for
/// the main actor would wait for all of them; under ThreadSanitizer, one of them can hold it
/// for seconds. With it, a test that takes no turn waits for at most one, and a test that
/// takes a shared turn waits for none while it runs.
public actor MainActorTurns {
  /// The suite's one line of turns.
  public static let shared = MainActorTurns()

  private enum Kind {
    case exclusive
    case shared
  }

  private var exclusiveActive = false
  private var sharedActive = 0
  private var waiting: [(kind: Kind, continuation: CheckedContinuation<Void, Never>)] = []

  /// Runs `work` on the main actor once every turn asked for before it has ended.
  public static func take<T: Sendable>(_ work: @MainActor () -> T) async -> T {
    await shared.acquire(.exclusive)
    let result = await MainActor.run(body: work)
    await shared.release(.exclusive)
    return result
  }

  /// Runs `work` on the main actor once every turn asked for before it has ended.
  public static func take<T: Sendable>(_ work: @MainActor () throws -> T) async throws -> T {
    await shared.acquire(.exclusive)
    let result = await MainActor.run { Result { try work() } }
    await shared.release(.exclusive)
    return try result.get()
  }

  /// Runs `work` (a whole test) in a turn of the given kind.
  fileprivate static func taking(
    exclusive: Bool, _ work: () async throws -> Void
  ) async throws {
    let kind: Kind = exclusive ? .exclusive : .shared
    await shared.acquire(kind)
    do {
      try await work()
    } catch {
      await shared.release(kind)
      throw error
    }
    await shared.release(kind)
  }

  private func acquire(_ kind: Kind) async {
    if waiting.isEmpty, canGrant(kind) {
      grant(kind)
      return
    }
    await withCheckedContinuation { waiting.append((kind, $0)) }
  }

  private func release(_ kind: Kind) {
    switch kind {
    case .exclusive: exclusiveActive = false
    case .shared: sharedActive -= 1
    }
    // In order: the first waiter, and after a shared one every shared one behind it.
    while let first = waiting.first, canGrant(first.kind) {
      waiting.removeFirst()
      grant(first.kind)
      first.continuation.resume()
    }
  }

  private func canGrant(_ kind: Kind) -> Bool {
    switch kind {
    case .exclusive: !exclusiveActive && sharedActive == 0
    case .shared: !exclusiveActive
    }
  }

  private func grant(_ kind: Kind) {
    switch kind {
    case .exclusive: exclusiveActive = true
    case .shared: sharedActive += 1
    }
  }
}

/// Runs each test of a suite in an exclusive turn of ``MainActorTurns``: for suites of short
/// tests that each hold the main actor for a while (a scheduler run many times, an
/// exploration).
public struct MainActorTurnTrait: TestTrait, SuiteTrait, TestScoping {
  let exclusive: Bool

  /// Applied to a suite, it covers each test in it.
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    test.isSuite || testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await MainActorTurns.taking(exclusive: exclusive, function)
  }
}

extension Trait where Self == MainActorTurnTrait {
  /// Each test takes its turn on the main actor after the suite's other long main-actor work.
  public static var mainActorTurn: Self { Self(exclusive: true) }

  /// Each test runs while no exploration or scheduler of the suite holds the main actor, beside
  /// any number of other such tests: for tests that drive main-actor code step by step within
  /// failure bounds.
  public static var responsiveMainActor: Self { Self(exclusive: false) }
}
