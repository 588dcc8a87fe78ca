import TaskProviding

// Repeated on purpose (docs/architecture.md): every wait spells out its timeout, call-site and
// isolation parameters.

/// A task provider for tests: what ``RecordingTaskProvider``, ``ManualTaskProvider`` and
/// ``ExplorationTaskProvider`` share. It keeps a ``TaskRecord`` of every task spawned through
/// it, waits on those tasks, and cancels them.
///
/// You do not create one: create one of those providers, each of which is a
/// `TestTaskProvider`; take this type where a helper of yours works with any of them. Every wait
/// keeps the caller's isolation, starts no task and polls nothing; its `timeout` bounds a
/// failure only. A wait that gives up throws an error naming what it waited for and where it
/// was called, and reports nothing: see <doc:ReportingFailures>. The source-location
/// parameters default to the caller's: see `TaskSourceLocation`.
public class TestTaskProvider: TaskProvider, @unchecked Sendable {
  // Unchecked only because the class is not final; every stored property is a `let` of a
  // `Sendable` type, and it cannot be subclassed outside this module.
  private let base: any TaskProvider
  let ledger: TaskLedger
  /// Where held tasks wait, for a provider that holds them; `nil` runs each task at once.
  let gates: TaskGates?

  init(base: any TaskProvider, holdsTasks: Bool) {
    self.base = base
    let ledger = TaskLedger()
    self.ledger = ledger
    self.gates = holdsTasks ? TaskGates(ledger: ledger) : nil
  }

  /// One record per spawn, in spawn order.
  public var records: [TaskRecord] { ledger.records }

  /// How many recorded tasks have not finished, held or running.
  public var pendingCount: Int { ledger.pendingCount }

  /// The records of the tasks that have not finished, held or running, in spawn order.
  public var pendingRecords: [TaskRecord] { ledger.pendingRecords }

  /// Returns once the recorded task `record` has finished. It does not release a held task.
  ///
  /// Secondary to `waitForAll` and `runNext`: for a test that must not wait for the other
  /// tasks.
  ///
  /// - `record`: The task's record, from `records`.
  /// - `timeout`: Bounds a failure only.
  /// - `isolation`: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming the task and this call's line at the timeout;
  ///   `CancellationError` if the waiting task is cancelled.
  public func waitFor(
    _ record: TaskRecord,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await ledger.waitOrThrow(
      .finished(record.index), timeout: timeout, stuck: { [$0.record(record.index)] },
      wait: "waitFor(_:)",
      at: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Returns once the task with handle `task`, spawned through this provider, has finished.
  /// It does not release a held task.
  ///
  /// Returns at once when the task is not pending here: it has finished, or another
  /// provider spawned it.
  /// - `task`: The task's handle, as its spawn returned it.
  /// - `timeout`: Bounds a failure only.
  /// - `isolation`: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming the task and this call's line at the timeout;
  ///   `CancellationError` if the waiting task is cancelled.
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
    try await ledger.waitOrThrow(
      .finished(index), timeout: timeout, stuck: { [$0.record(index)] },
      wait: "waitFor(_:)",
      at: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Cancels every pending task. A held task still runs when released, and sees
  /// `Task.isCancelled == true`, as a cancelled `Task { }` would.
  public func cancelAll() {
    ledger.cancelAll()
  }

  /// Reports an issue at the caller's line naming each pending task; does nothing when
  /// none is pending.
  ///
  /// The issue fails the current test under Swift Testing and XCTest alike. A scope's leak
  /// check does not report these tasks again.
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

  /// Records the task, runs it through the base provider (held first, for a provider that
  /// holds), and marks it finished when its operation returns. Spawned by the code of a
  /// scheduler or an exploration, it prefers their executor (see <doc:TheSchedulingEngine>).
  @discardableResult
  public final func spawn<Success: Sendable>(
    _ spawn: TaskSpawn,
    isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let (index, forwarded) = register(spawn)
    let (ledger, gates) = (ledger, gates)
    // An immediate task starts inline, in its spawner's job: taking the preference there
    // would suspend it before its first line, which `Task.immediate` promises not to do.
    let scope = forwarded.kind == .immediate ? nil : ScopeTaskPreference.spawningScope()
    let scoped = scope != nil
    let handle = base.spawn(forwarded, isolation: isolation) {
      _ = isolation  // keeps the wrapper on the caller's actor, as the operation would be
      // Outside a scope, the task runs as it always did: one call less on its stack.
      guard scoped else {
        if let gates { await gates.pass(index) }
        defer { ledger.finish(index, cancelled: Task.isCancelled) }
        return await operation()
      }
      return await Self.preferringScope(
        index, ledger: ledger, gates: gates, isolation: isolation, operation)
    }
    if let scope { ScopeTaskPreference.note(handle, in: scope) }
    ledger.attach(handle, to: index)
    return handle
  }

  /// Records the task, runs it through the base provider (held first, for a provider that
  /// holds), and marks it finished when its operation returns or throws. Spawned by the code
  /// of a scheduler or an exploration, it prefers their executor (see
  /// <doc:TheSchedulingEngine>).
  @discardableResult
  public final func spawn<Success: Sendable>(
    _ spawn: TaskSpawn,
    isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    let (index, forwarded) = register(spawn)
    let (ledger, gates) = (ledger, gates)
    // An immediate task starts inline, in its spawner's job: taking the preference there
    // would suspend it before its first line, which `Task.immediate` promises not to do.
    let scope = forwarded.kind == .immediate ? nil : ScopeTaskPreference.spawningScope()
    let scoped = scope != nil
    let handle = base.spawn(forwarded, isolation: isolation) {
      _ = isolation  // keeps the wrapper on the caller's actor, as the operation would be
      // Outside a scope, the task runs as it always did: one call less on its stack.
      guard scoped else {
        if let gates { await gates.pass(index) }
        defer { ledger.finish(index, cancelled: Task.isCancelled) }
        return try await operation()
      }
      return try await Self.preferringScope(
        index, ledger: ledger, gates: gates, isolation: isolation, operation)
    }
    if let scope { ScopeTaskPreference.note(handle, in: scope) }
    ledger.attach(handle, to: index)
    return handle
  }

  /// Runs a recorded task's operation, with the scope's task executor as the task's
  /// preference: a function of its own, so that a task spawned outside a scope carries none
  /// of it on its stack.
  private static func preferringScope<Success: Sendable, Failure: Error>(
    _ index: Int, ledger: TaskLedger, gates: TaskGates?, isolation: isolated (any Actor)?,
    _ operation: @isolated(any) () async throws(Failure) -> Success
  ) async throws(Failure) -> Success {
    try await ScopeTaskPreference.preferring(isolation: isolation) { () async throws(Failure) in
      _ = isolation  // keeps this closure on the caller's actor
      if let gates { await gates.pass(index) }
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return try await operation()
    }
  }

  /// Records a spawn and returns its index and the spawn to forward. A held immediate spawn
  /// is forwarded as an ordinary one: the test, not the spawn, decides when it starts.
  private func register(_ spawn: TaskSpawn) -> (Int, TaskSpawn) {
    guard let gates else { return (ledger.register(spawn, held: false), spawn) }
    let index = ledger.register(spawn, held: true, beforeWaking: gates.hold)
    var forwarded = spawn
    if forwarded.kind == .immediate { forwarded.kind = .task }
    return (index, forwarded)
  }
}
