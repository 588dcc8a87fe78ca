import Testing

// Repeated on purpose (docs/architecture.md): `TestScoping`'s conformance has the same shape in
// every trait.

/// A Swift Testing trait that runs each test under
/// ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2``: every job the test causes
/// runs one at a time, in enqueue order, on one thread.
///
/// Beside ``Testing/Trait/exploring(_:)`` it does nothing: the explorer runs the test's jobs
/// one at a time already, in the orders it explores.
///
/// The scheduler owns the test's jobs and nothing else, so tests under it run beside any
/// other test. Keep tests that use `withMainSerialExecutor`, which takes the runtime's
/// process-wide hook for itself, out of the same process run (an exit test does it).
public struct SerialSchedulerTrait: TestTrait, SuiteTrait, TestScoping {
  /// Bounds a failure only: a test that has not ended by then is reported and cancelled.
  public let timeout: Duration

  /// Applied to a suite, it schedules each test in it.
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    test.isSuite || testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // The explorer runs a test's jobs one at a time already, in many orders: a scheduler
    // inside each schedule would fix one.
    guard !ExploringTrait.explores(test) else { return try await function() }
    let site = CallSite(test.sourceLocation)
    try await withoutActuallyEscaping(function) { function in
      // The scheduler needs an escaping body; it returns only once the body has ended, or
      // after it has given up on it and cancelled it.
      try await Self.run(UncheckedFunction(function), timeout: timeout, at: site)
    }
  }

  /// Runs `body` under the scheduler's `async` form, which gives the main actor back to the
  /// tests beside it every few milliseconds.
  @MainActor
  private static func run(
    _ body: UncheckedFunction, timeout: Duration, at site: CallSite
  ) async throws {
    try await runSerially(timeout: timeout, at: site, waitsForCancelledBody: true) {
      try await body.call()
    }
  }
}

/// Carries the non-escaping test function into the scheduler's body, which ends before
/// `provideScope` returns.
private struct UncheckedFunction: @unchecked Sendable {
  let call: @Sendable () async throws -> Void
  init(_ call: @escaping @Sendable () async throws -> Void) { self.call = call }
}

extension Trait where Self == SerialSchedulerTrait {
  /// Runs each test under ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2``,
  /// with a 30-second timeout.
  public static var serialScheduler: Self { serialScheduler(timeout: .seconds(30)) }

  /// Runs each test under ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2``
  /// with the given timeout.
  public static func serialScheduler(timeout: Duration) -> Self {
    Self(timeout: timeout)
  }
}
