import TaskProviding

// Repeated on purpose (docs/architecture.md): every wait spells out its timeout, call-site and
// isolation parameters.

/// A provider that runs every task through a base provider and records it, so a test can
/// wait for all of them, inspect them, cancel them, and fail if any is left behind.
///
/// ```swift
/// let provider = RecordingTaskProvider()
/// let model = withDependencies { $0.taskProvider = provider } operation: { Model() }
/// model.buttonTapped()                 // spawns through the provider
/// try await provider.waitForAll()      // returns once every spawned task has finished
/// #expect(model.didFinish)
/// ```
///
/// A closure passed to `task` keeps the caller's isolation, so tasks spawned from the main
/// actor still start in spawn order. Waiting suspends on a continuation: no polling.
public final class RecordingTaskProvider: TestTaskProvider, @unchecked Sendable {
  private let creation: CallSite

  /// Creates a provider that records tasks and runs them as `Task` would.
  ///
  /// A provider released while tasks it recorded are still pending reports them, at the
  /// place it was created, and cancels them: a leak fails the test even outside a scope.
  public convenience init(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      base: LiveTaskProvider(), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Creates a provider that records tasks and runs them through `base`.
  public init(
    base: some TaskProvider,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    super.init(base: base, holdsTasks: false)
  }

  deinit {
    let leaked = ledger.takeLeaks()
    guard !leaked.isEmpty else { return }
    creation.report(
      PendingTasksError.describe(
        leaked, headline: "RecordingTaskProvider was released with"))
  }

  /// Returns once every recorded task has finished, including tasks spawned while waiting
  /// and tasks spawned by those tasks.
  ///
  /// It keeps the caller's isolation and starts no task: a test on the main actor that
  /// waits for a task finishing on the main actor continues without a thread switch.
  ///
  /// - `timeout`: How long to wait before giving up. It bounds a failure only:
  ///   a successful wait returns as soon as the last task finishes.
  /// - `isolation`: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming every task still pending at the timeout and
  ///   this call's line; `CancellationError` if the waiting task is cancelled.
  public func waitForAll(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await ledger.waitOrThrow(
      .idle, timeout: timeout, stuck: { $0.pendingRecords }, wait: "waitForAll()",
      at: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The provider the enclosing ``Testing/Trait/recordingTaskProvider`` trait or
  /// ``withRecordingTaskProvider(base:timeout:fileID:filePath:line:column:isolation:_:)``
  /// installed for this test.
  ///
  /// Read outside such a scope, it reports an issue and returns a new provider.
  public static var current: RecordingTaskProvider {
    ProviderScope.provider(RecordingTaskProvider.self, trait: ".recordingTaskProvider") {
      RecordingTaskProvider()
    }
  }
}

/// Runs `body` with a fresh ``RecordingTaskProvider`` installed as
/// `@Dependency(\.taskProvider)` and as ``RecordingTaskProvider/current``, then checks that
/// no task was left behind.
///
/// When `body` ends (returns or throws), tasks still running get `timeout` to finish; any
/// left after that are reported as an issue at the caller's line, which fails the test, and
/// then cancelled so they cannot leak into the next test. Tasks a failed wait inside `body`
/// already reported are not reported again. The trait ``Testing/Trait/recordingTaskProvider``
/// does the same for a whole test or suite.
///
/// The source-location parameters default to the caller's: see `TaskSourceLocation`.
///
/// - `base`: The provider the recorded tasks run through.
/// - `timeout`: How long leftover tasks may take to finish before they count as leaked.
/// - `body`: The test, given the provider.
/// - `isolation`: The caller's isolation, kept across the wait.
/// - Returns: What `body` returns.
@discardableResult
public func withRecordingTaskProvider<R>(
  base: some TaskProvider = LiveTaskProvider(),
  timeout: Duration = .seconds(5),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (RecordingTaskProvider) async throws -> R
) async rethrows -> R {
  let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  let provider = RecordingTaskProvider(
    base: base, fileID: fileID, filePath: filePath, line: line, column: column)
  return try await ProviderScope.run(
    provider, ledger: provider.ledger, timeout: timeout, at: location
  ) {
    _ = isolation  // keeps the body on the caller's actor
    return try await body(provider)
  }
}
