import TaskProviding
import TaskScheduling

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
public final class RecordingTaskProvider: TaskProvider {
  private let base: any TaskProvider
  let ledger = TaskLedger()
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
    self.base = base
    self.creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  deinit {
    let leaked = ledger.takeLeaks()
    guard !leaked.isEmpty else { return }
    creation.report(
      PendingTasksError.describe(
        leaked, headline: "RecordingTaskProvider was released with"))
  }

  /// One record per spawn, in spawn order.
  public var records: [TaskRecord] { ledger.records }

  /// How many recorded tasks have not finished.
  public var pendingCount: Int { ledger.pendingCount }

  /// The records of the tasks that have not finished, in spawn order.
  public var pendingRecords: [TaskRecord] { ledger.pendingRecords }

  /// Returns once every recorded task has finished, including tasks spawned while waiting
  /// and tasks spawned by those tasks.
  ///
  /// It keeps the caller's isolation and starts no task: a test on the main actor that
  /// waits for a task finishing on the main actor continues without a thread switch.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait before giving up. It bounds a failure only:
  ///     a successful wait returns as soon as the last task finishes.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming every task still pending at the timeout, after
  ///   reporting it as an issue at the caller's line; `CancellationError` if the waiting
  ///   task is cancelled.
  public func waitForAll(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await ledger.waitOrReport(
      .idle, timeout: timeout, stuck: { $0.pendingRecords },
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Returns once the recorded task `record` has finished.
  ///
  /// - Parameters:
  ///   - timeout: Bounds a failure only.
  ///   - record: The task's record, from `records`.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming the task at the timeout, after reporting it at
  ///   the caller's line; `CancellationError` if the waiting task is cancelled.
  public func waitFor(
    _ record: TaskRecord,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await ledger.waitOrReport(
      .finished(record.index), timeout: timeout, stuck: { [$0.record(record.index)] },
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Returns once the task with handle `task`, spawned through this provider, has finished.
  ///
  /// Returns at once when the task is not pending here: it has finished, or another
  /// provider spawned it.
  /// - Parameters:
  ///   - timeout: Bounds a failure only.
  ///   - task: The task's handle, as its spawn returned it.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming the task at the timeout, after reporting it at
  ///   the caller's line; `CancellationError` if the waiting task is cancelled.
  public func waitFor<Success: Sendable, Failure: Error>(
    _ task: Task<Success, Failure>,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    guard let index = ledger.pendingIndex(of: task) else { return }
    try await ledger.waitOrReport(
      .finished(index), timeout: timeout, stuck: { [$0.record(index)] },
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Cancels every pending task.
  public func cancelAll() {
    ledger.cancelAll()
  }

  /// The provider the enclosing ``Testing/Trait/recordingTaskProvider`` trait or
  /// ``withRecordingTaskProvider(base:timeout:fileID:filePath:line:column:isolation:_:)``
  /// installed for this test.
  ///
  /// Read outside such a scope, it reports an issue and returns a new provider.
  public static var current: RecordingTaskProvider {
    TestScope.provider(RecordingTaskProvider.self, trait: ".recordingTaskProvider") {
      RecordingTaskProvider()
    }
  }

  /// Reports an issue naming each pending task; does nothing when none is pending.
  ///
  /// The issue fails the current test under Swift Testing and XCTest alike.
  public func expectNoPendingTasks(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let pending = ledger.pendingRecords
    guard !pending.isEmpty else { return }
    ledger.markReported(pending)
    CallSite(fileID: fileID, filePath: filePath, line: line, column: column).report(
      PendingTasksError.describe(pending, headline: "Expected no pending tasks, found"))
  }

  @discardableResult
  public func task<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let index = ledger.register(
      .task, name: name, priority: priority, location: location, held: false)
    let ledger = ledger
    let handle = base.task(
      name: name, priority: priority, location: location, isolation: isolation
    ) {
      _ = isolation
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return await operation()
    }
    ledger.attach(handle, to: index)
    return handle
  }

  @discardableResult
  public func task<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    let index = ledger.register(
      .task, name: name, priority: priority, location: location, held: false)
    let ledger = ledger
    let handle = base.task(
      name: name, priority: priority, location: location, isolation: isolation
    ) {
      _ = isolation
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return try await operation()
    }
    ledger.attach(handle, to: index)
    return handle
  }

  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let index = ledger.register(
      .detached, name: name, priority: priority, location: location, held: false)
    let ledger = ledger
    let handle = base.detachedTask(name: name, priority: priority, location: location) {
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return await operation()
    }
    ledger.attach(handle, to: index)
    return handle
  }

  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    let index = ledger.register(
      .detached, name: name, priority: priority, location: location, held: false)
    let ledger = ledger
    let handle = base.detachedTask(name: name, priority: priority, location: location) {
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return try await operation()
    }
    ledger.attach(handle, to: index)
    return handle
  }

  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  @discardableResult
  public func immediateTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext(always) @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let index = ledger.register(
      .immediate, name: name, priority: priority, location: location, held: false)
    let ledger = ledger
    let handle = base.immediateTask(
      name: name, priority: priority, location: location, isolation: isolation
    ) {
      _ = isolation
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return await operation()
    }
    ledger.attach(handle, to: index)
    return handle
  }

  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  @discardableResult
  public func immediateTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext(always) @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    let index = ledger.register(
      .immediate, name: name, priority: priority, location: location, held: false)
    let ledger = ledger
    let handle = base.immediateTask(
      name: name, priority: priority, location: location, isolation: isolation
    ) {
      _ = isolation
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return try await operation()
    }
    ledger.attach(handle, to: index)
    return handle
  }
}

/// Thrown when tasks are still pending at the end of a wait.
public struct PendingTasksError: Error, Equatable, CustomStringConvertible {
  /// How long the wait lasted.
  public let timeout: Duration
  /// The tasks that had not finished, in spawn order.
  public let pending: [TaskRecord]

  /// Creates the error.
  public init(timeout: Duration, pending: [TaskRecord]) {
    self.timeout = timeout
    self.pending = pending
  }

  /// A headline and one line per pending task, with its name and spawn location.
  public var description: String {
    Self.describe(pending, headline: "Timed out after \(timeout) waiting for")
  }

  static func describe(
    _ pending: [TaskRecord], headline: String, footer: String? = nil
  ) -> String {
    let noun = pending.count == 1 ? "task" : "tasks"
    let lines = ["\(headline) \(pending.count) pending \(noun):"] + pending.map { "  \($0)" }
    return (lines + (footer.map { [$0] } ?? [])).joined(separator: "\n")
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
/// - Parameters:
///   - base: The provider the recorded tasks run through.
///   - timeout: How long leftover tasks may take to finish before they count as leaked.
///   - body: The test, given the provider.
///   - fileID: The file an issue is reported in; the caller's by default.
///   - filePath: The full path of that file.
///   - line: The line an issue is reported at.
///   - column: The column an issue is reported at.
///   - isolation: The caller's isolation, kept across the wait.
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
