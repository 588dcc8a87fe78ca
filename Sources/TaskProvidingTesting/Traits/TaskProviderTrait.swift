import Testing

// Repeated on purpose (docs/architecture.md): `TestScoping`'s conformance has the same shape in
// every trait.

/// A Swift Testing trait that gives each test its own testing provider: installed as
/// `@Dependency(\.taskProvider)` and reachable as `RecordingTaskProvider.current` or
/// `ManualTaskProvider.current`, with a leak check when the test ends.
///
/// Use it through ``Testing/Trait/recordingTaskProvider`` and
/// ``Testing/Trait/manualTaskProvider``, on a test or a whole suite. Each test (and each
/// case of a parameterized test) gets a fresh provider in a task local, so tests that run
/// in parallel never see each other's tasks.
public struct TaskProviderTrait: TestTrait, SuiteTrait, TestScoping {
  enum Kind: Sendable {
    case recording
    case manual
  }

  let kind: Kind
  /// How long tasks still running when the test ends may take before they count as leaked.
  public let timeout: Duration

  /// Applied to a suite, it scopes each test in it.
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    // One provider per test case, never one shared by a suite.
    test.isSuite || testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // Explored, each schedule gets a fresh provider: the `exploring` trait gives it, wherever
    // the two traits are in the list.
    guard !ExploringTrait.explores(test) else { return try await function() }
    try await provideScopeOfOneRun(for: test, performing: function)
  }

  /// Gives one run of a test's body its provider, and checks for leaks when it ends.
  func provideScopeOfOneRun(
    for test: Test, performing function: @Sendable () async throws -> Void
  ) async throws {
    let site = CallSite(test.sourceLocation)
    switch kind {
    case .recording:
      let provider = RecordingTaskProvider()
      try await ProviderScope.run(
        provider, ledger: provider.ledger, timeout: timeout,
        at: site
      ) {
        try await function()
      }
    case .manual:
      let provider = ManualTaskProvider()
      try await ProviderScope.run(
        provider, ledger: provider.ledger, timeout: timeout,
        at: site, release: provider.releaseAll
      ) {
        try await function()
      }
    }
  }
}

extension Trait where Self == TaskProviderTrait {
  /// Each test gets a fresh `RecordingTaskProvider`, as `@Dependency(\.taskProvider)` and as
  /// `RecordingTaskProvider.current`. When the test ends, tasks still running get 5 seconds
  /// to finish; any left are reported by name and spawn location, then cancelled.
  public static var recordingTaskProvider: Self { recordingTaskProvider(timeout: .seconds(5)) }

  /// Each test gets a fresh `RecordingTaskProvider`; tasks still running when it ends get
  /// `timeout` to finish before they are reported and cancelled.
  public static func recordingTaskProvider(timeout: Duration) -> Self {
    Self(kind: .recording, timeout: timeout)
  }

  /// Each test gets a fresh `ManualTaskProvider`, as `@Dependency(\.taskProvider)` and as
  /// `ManualTaskProvider.current`. When the test ends, running tasks get 5 seconds to finish;
  /// tasks still pending (held or running) are reported, cancelled, and released so they end.
  public static var manualTaskProvider: Self { manualTaskProvider(timeout: .seconds(5)) }

  /// Each test gets a fresh `ManualTaskProvider`; running tasks get `timeout` to finish when
  /// it ends before pending ones are reported, cancelled and released.
  public static func manualTaskProvider(timeout: Duration) -> Self {
    Self(kind: .manual, timeout: timeout)
  }
}
