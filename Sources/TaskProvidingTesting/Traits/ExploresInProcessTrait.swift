import Testing

/// A Swift Testing trait that keeps a test's explorations in the test process: each explores
/// once, with no child process first.
///
/// Under Swift Testing on Linux an exploration runs first in a child process of the test
/// binary, so that a schedule that traps is reported instead of ending the run (see the
/// article "Crashes and hangs in a schedule"), and then, if nothing trapped, in the test
/// process. That costs a start of the test binary and a second exploration per call, holding
/// the main actor meanwhile. For a suite of many large explorations of code that cannot trap,
/// use ``Testing/Trait/exploresInProcess``: a trap then ends the test run.
public struct ExploresInProcessTrait: TestTrait, SuiteTrait, TestScoping {
  /// Applied to a suite, it scopes each test in it.
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    try await ExplorationRoute.$inProcess.withValue(true) { try await function() }
  }
}

extension Trait where Self == ExploresInProcessTrait {
  /// The test's explorations run once, in the test process, with no child process first: a
  /// schedule that traps ends the test run.
  public static var exploresInProcess: Self { ExploresInProcessTrait() }
}
