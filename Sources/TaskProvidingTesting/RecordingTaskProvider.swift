import Dependencies
import IssueReporting
import TaskProviding

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

  /// Creates a provider that records tasks and runs them as `Task` would.
  public convenience init() {
    self.init(base: LiveTaskProvider())
  }

  /// Creates a provider that records tasks and runs them through `base`.
  public init(base: some TaskProvider) {
    self.base = base
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
  /// - Parameter timeout: How long to wait before giving up. It bounds a failure only:
  ///   a successful wait returns as soon as the last task finishes.
  /// - Throws: ``PendingTasksError`` naming every task still pending at the timeout, or
  ///   `CancellationError` if the waiting task is cancelled.
  public func waitForAll(timeout: Duration = .seconds(5)) async throws {
    if await ledger.wait(for: .idle, timeout: timeout) { return }
    try Task.checkCancellation()
    throw PendingTasksError(timeout: timeout, pending: ledger.pendingRecords)
  }

  /// Cancels every pending task.
  public func cancelAll() {
    ledger.cancelAll()
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
    reportIssue(
      PendingTasksError.describe(pending, headline: "Expected no pending tasks, found"),
      fileID: fileID, filePath: filePath, line: line, column: column)
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

  static func describe(_ pending: [TaskRecord], headline: String) -> String {
    let noun = pending.count == 1 ? "task" : "tasks"
    return (["\(headline) \(pending.count) pending \(noun):"] + pending.map { "  \($0)" })
      .joined(separator: "\n")
  }
}

/// Runs `body` with a fresh ``RecordingTaskProvider`` installed as
/// `@Dependency(\.taskProvider)`, then checks that no task was left behind.
///
/// When `body` ends (returns or throws), tasks still running get `timeout` to finish; any
/// left after that are reported as an issue, which fails the test, and then cancelled so
/// they cannot leak into the next test.
///
/// - Parameters:
///   - base: The provider the recorded tasks run through.
///   - timeout: How long leftover tasks may take to finish before they count as leaked.
///   - body: The test, given the provider.
/// - Returns: What `body` returns.
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
  let provider = RecordingTaskProvider(base: base)
  defer { provider.cancelAll() }
  func expectSettled() async {
    _ = await provider.ledger.wait(for: .idle, timeout: timeout)
    provider.expectNoPendingTasks(fileID: fileID, filePath: filePath, line: line, column: column)
  }
  do {
    let result = try await withDependencies {
      $0.taskProvider = provider
    } operation: {
      try await body(provider)
    }
    await expectSettled()
    return result
  } catch {
    await expectSettled()
    throw error
  }
}
