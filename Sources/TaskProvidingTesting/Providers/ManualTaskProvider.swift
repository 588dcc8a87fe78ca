import TaskProviding

// Repeated on purpose (docs/architecture.md): every wait spells out its timeout, call-site and
// isolation parameters.

/// A provider that holds every task until the test releases it, so a test decides exactly
/// when each piece of asynchronous work runs.
///
/// Each spawn returns a real `Task` handle at once, but the operation waits at a gate.
/// ``runNext(timeout:fileID:filePath:line:column:isolation:)`` opens the oldest gate and returns when
/// that task has finished; ``runAll(timeout:fileID:filePath:line:column:isolation:)`` repeats until
/// nothing is held, in spawn order, including tasks spawned meanwhile.
///
/// ```swift
/// let provider = ManualTaskProvider()
/// let model = withDependencies { $0.taskProvider = provider } operation: { Model() }
/// model.buttonTapped()                 // spawns; the task is held
/// #expect(model.isLoading)             // nothing has run yet
/// await provider.runNext()             // runs that task to the end
/// #expect(!model.isLoading)
/// ```
///
/// Cancelling a held task behaves as for `Task { }`: its operation still runs when
/// released, and sees `Task.isCancelled == true`.
///
/// Immediate spawns (`immediateTask`) are held like every other task: the test, not the
/// spawn, decides when they run. Released, such a task runs from its start as a task
/// scheduled at that moment on the spawner's actor; it is recorded with kind `.immediate`.
///
/// Every wait keeps the caller's isolation and starts no task: `runNext()` called on the
/// main actor for a task that runs on the main actor returns without a thread switch.
public final class ManualTaskProvider: TestTaskProvider, @unchecked Sendable {
  /// Creates a provider whose tasks run, once released, as `Task` would run them.
  public convenience init() {
    self.init(base: LiveTaskProvider())
  }

  /// Creates a provider whose tasks run, once released, through `base`.
  public init(base: some TaskProvider) {
    super.init(base: base, holdsTasks: true)
  }

  /// How many tasks are held, waiting to be released.
  public var heldCount: Int { gates?.heldCount ?? 0 }

  /// Releases the oldest held task without waiting for it.
  ///
  /// Secondary to ``runNext(timeout:fileID:filePath:line:column:isolation:)``: use it when
  /// the test must act while the task runs, for example to answer the request the task is
  /// waiting on.
  /// - Returns: The released task's record, or `nil` (and an issue at the caller's line)
  ///   when nothing is held.
  @discardableResult
  public func startNext(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> TaskRecord? {
    guard let index = gates?.release() else {
      CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        .report("startNext() found no held task.")
      return nil
    }
    return ledger.record(index)
  }

  /// Returns once no released task is still running; held tasks stay held.
  ///
  /// Secondary, as ``startNext(fileID:filePath:line:column:)`` is: use it after that, once the
  /// test has given the task what it was waiting for.
  /// - `timeout`: Bounds a failure only; success returns as soon as they finish.
  /// - `isolation`: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming the tasks still running at the timeout and this
  ///   call's line; `CancellationError` if the waiting task is cancelled.
  public func waitForRunningTasks(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await ledger.waitOrThrow(
      .noneRunning, timeout: timeout, stuck: { $0.runningRecords },
      wait: "waitForRunningTasks()",
      at: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Returns once at least `count` tasks are held, so a test can wait for code running
  /// elsewhere to spawn, then step what it spawned.
  ///
  /// ```swift
  /// async let tap: Void = model.getFactButtonTapped()  // spawns its request, then awaits it
  /// try await provider.waitForHeldTasks()              // the request is spawned and held
  /// #expect(model.isLoading)
  /// await provider.runNext()
  /// await tap
  /// ```
  /// - `count`: How many held tasks to wait for.
  /// - `timeout`: Bounds a failure only; success returns as soon as they are held.
  /// - `isolation`: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` listing the pending tasks at the timeout and this
  ///   call's line; `CancellationError` if the waiting task is cancelled.
  public func waitForHeldTasks(
    _ count: Int = 1,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await ledger.waitOrThrow(
      .held(count), timeout: timeout, stuck: { $0.pendingRecords },
      wait: "waitForHeldTasks(\(count))",
      at: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The provider the enclosing ``Testing/Trait/manualTaskProvider`` trait or
  /// ``withManualTaskProvider(base:timeout:fileID:filePath:line:column:isolation:_:)`` installed
  /// for this test.
  ///
  /// Read outside such a scope, it reports an issue and returns a new provider.
  public static var current: ManualTaskProvider {
    ProviderScope.provider(ManualTaskProvider.self, trait: ".manualTaskProvider") {
      ManualTaskProvider()
    }
  }

  /// Starts the oldest held task and returns when it has finished.
  ///
  /// It has no error to throw, so it reports an issue at the caller's line when nothing is
  /// held, or when the task has not finished within `timeout` (it may be awaiting a task
  /// that is still held).
  public func runNext(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let index = gates?.release() else {
      site.report("runNext() found no held task.")
      return
    }
    await finish(index, timeout: timeout, at: site)
  }

  /// Runs held tasks one at a time, oldest first, until nothing is held, including tasks
  /// spawned by the tasks it runs.
  ///
  /// It has no error to throw, so it reports an issue at the caller's line if one of them
  /// has not finished within `timeout`, and stops there.
  public func runAll(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    while let index = gates?.release() {
      guard await finish(index, timeout: timeout, at: site) else { return }
    }
  }

  @discardableResult
  private func finish(
    _ index: Int, timeout: Duration, at site: CallSite,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Bool {
    if await ledger.wait(for: .finished(index), timeout: timeout) { return true }
    let stuck = ledger.record(index)
    ledger.markReported([stuck])
    let heldRecords = ledger.pendingRecords.filter { $0.status == .held }
    let heldList =
      heldRecords.isEmpty
      ? "" : "\nStill held:\n" + heldRecords.map { "  \($0)" }.joined(separator: "\n")
    site.report(
      """
      \(stuck) did not finish within \(TimeoutScale.describe(timeout)). It may be \
      waiting on a task that is still held, or on something the test has not provided \
      yet.\(heldList)
      """)
    return false
  }

  /// Releases every held task, oldest first, without waiting: how a scope ends tasks the
  /// test left held, after cancelling them.
  func releaseAll() {
    while gates?.release() != nil {}
  }
}

/// Runs `body` with a fresh ``ManualTaskProvider`` installed as
/// `@Dependency(\.taskProvider)` and as ``ManualTaskProvider/current``, then checks that no
/// task was left behind.
///
/// When `body` ends, running tasks get `timeout` to finish; tasks still pending after that
/// (held or running), and not already reported by a failed wait, are reported at the
/// caller's line, cancelled, and released so they end instead of waiting forever.
///
/// The source-location parameters default to the caller's: see `TaskSourceLocation`.
///
/// - `base`: What runs each task once it is released; `Task`, as `LiveTaskProvider`, unless
///   given.
/// - `timeout`: How long running tasks may take to finish before they count as leaked.
/// - `body`: The test, given the provider.
/// - `isolation`: The caller's isolation, kept across the wait.
/// - Returns: What `body` returns.
@discardableResult
public func withManualTaskProvider<R>(
  base: some TaskProvider = LiveTaskProvider(),
  timeout: Duration = .seconds(5),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (ManualTaskProvider) async throws -> R
) async rethrows -> R {
  let provider = ManualTaskProvider(base: base)
  return try await ProviderScope.run(
    provider, ledger: provider.ledger, timeout: timeout,
    at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
    release: provider.releaseAll
  ) {
    _ = isolation  // keeps the body on the caller's actor
    return try await body(provider)
  }
}
