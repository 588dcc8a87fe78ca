import TaskProviding
import TaskScheduling

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
public final class ManualTaskProvider: TaskProvider {
  private struct Gates {
    /// Held tasks in spawn order; `next` is the first one not yet released.
    var held: [Int] = []
    var next = 0
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    /// Tasks released before their operation reached the gate.
    var opened: Set<Int> = []
  }

  private let base: any TaskProvider
  let ledger = TaskLedger()
  private let gates = Locked(Gates())

  /// Creates a provider whose tasks run, once released, as `Task` would run them.
  public convenience init() {
    self.init(base: LiveTaskProvider())
  }

  /// Creates a provider whose tasks run, once released, through `base`.
  public init(base: some TaskProvider) {
    self.base = base
  }

  /// One record per spawn, in spawn order.
  public var records: [TaskRecord] { ledger.records }

  /// How many tasks have not finished: held plus running.
  public var pendingCount: Int { ledger.pendingCount }

  /// The records of the tasks that have not finished (held or running), in spawn order.
  public var pendingRecords: [TaskRecord] { ledger.pendingRecords }

  /// How many tasks are held, waiting to be released.
  public var heldCount: Int { gates.withLock { $0.held.count - $0.next } }

  /// Releases the oldest held task without waiting for it.
  ///
  /// Use it when the test must act while the task runs, for example to answer the request
  /// the task is waiting on.
  /// - Returns: The released task's record, or `nil` (and an issue) when nothing is held.
  @discardableResult
  public func startNext(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> TaskRecord? {
    guard let index = releaseNext() else {
      CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        .report("startNext() found no held task.")
      return nil
    }
    return ledger.record(index)
  }

  /// Returns once no released task is still running; held tasks stay held.
  ///
  /// Use it after ``startNext(fileID:filePath:line:column:)``, once the test has given the
  /// task what it was waiting for.
  /// - Parameters:
  ///   - timeout: Bounds a failure only; success returns as soon as they finish.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming the tasks still running at the timeout, after
  ///   reporting it as an issue at the caller's line.
  public func waitForRunningTasks(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await ledger.waitOrReport(
      .noneRunning, timeout: timeout, stuck: { $0.runningRecords },
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
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
  /// - Parameters:
  ///   - count: How many held tasks to wait for.
  ///   - timeout: Bounds a failure only; success returns as soon as they are held.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` listing the pending tasks at the timeout.
  public func waitForHeldTasks(
    _ count: Int = 1,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await ledger.waitOrReport(
      .held(count), timeout: timeout, stuck: { $0.pendingRecords },
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Returns once the task `record` describes has finished; it does not release it.
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
  ///   the caller's line.
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

  /// Returns once the task with handle `task`, spawned through this provider, has finished;
  /// it does not release it. Returns at once when the task is not pending here.
  ///
  /// - Parameters:
  ///   - timeout: Bounds a failure only.
  ///   - task: The task's handle, as its spawn returned it.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Throws: ``PendingTasksError`` naming the task at the timeout, after reporting it at
  ///   the caller's line.
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

  /// The provider the enclosing ``Testing/Trait/manualTaskProvider`` trait or
  /// ``withManualTaskProvider(timeout:fileID:filePath:line:column:isolation:_:)`` installed
  /// for this test.
  ///
  /// Read outside such a scope, it reports an issue and returns a new provider.
  public static var current: ManualTaskProvider {
    TestScope.provider(ManualTaskProvider.self, trait: ".manualTaskProvider") {
      ManualTaskProvider()
    }
  }

  /// Starts the oldest held task and returns when it has finished.
  ///
  /// Reports an issue when nothing is held, or when the task has not finished within
  /// `timeout` (it may be awaiting a task that is still held).
  public func runNext(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let index = releaseNext() else {
      site.report("runNext() found no held task.")
      return
    }
    await finish(index, timeout: timeout, at: site)
  }

  /// Runs held tasks one at a time, oldest first, until nothing is held, including tasks
  /// spawned by the tasks it runs.
  ///
  /// Reports an issue if one of them has not finished within `timeout`, and stops there.
  public func runAll(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    while let index = releaseNext() {
      guard await finish(index, timeout: timeout, at: site) else { return }
    }
  }

  /// Cancels every pending task, held or running. Held ones still run when released.
  public func cancelAll() {
    ledger.cancelAll()
  }

  @discardableResult
  private func finish(
    _ index: Int, timeout: Duration, at site: CallSite,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Bool {
    if await ledger.wait(for: .finished(index), timeout: timeout) { return true }
    let stuck = ledger.record(index)
    ledger.markReported([stuck])
    let held = ledger.pendingRecords.filter { $0.status == .held }
    let heldList =
      held.isEmpty ? "" : "\nStill held:\n" + held.map { "  \($0)" }.joined(separator: "\n")
    site.report(
      """
      \(stuck) did not finish within \(timeout). It may be waiting on a task that is \
      still held, or on something the test has not provided yet.\(heldList)
      """)
    return false
  }

  /// Releases every held task, oldest first, without waiting: how a scope ends tasks the
  /// test left held, after cancelling them.
  package func releaseAll() {
    while releaseNext() != nil {}
  }

  /// The records of the tasks still held, oldest first.
  package var heldRecords: [TaskRecord] {
    gates.withLock { Array($0.held[$0.next...]) }.map(ledger.record)
  }

  /// Releases the held task `record` describes, whatever its place among the held ones: how
  /// a driver that chooses the order (an exploration) starts the one it chose.
  /// - Returns: `false` when that task is not held.
  @discardableResult
  package func start(_ record: TaskRecord) -> Bool {
    releaseNext(choosing: record.index) != nil
  }

  /// The record of the task spawned here whose handle has this address, as the runtime
  /// knows the task, if there is one.
  package func record(forTaskAt address: UInt) -> TaskRecord? {
    ledger.index(ofTaskAt: address).map(ledger.record)
  }

  private func releaseNext(choosing chosen: Int? = nil) -> Int? {
    let released = gates.withLock { gates -> (Int, CheckedContinuation<Void, Never>?)? in
      guard gates.next < gates.held.count else { return nil }
      let index: Int
      if let chosen {
        guard let position = gates.held[gates.next...].firstIndex(of: chosen) else {
          return nil
        }
        gates.held.remove(at: position)
        index = chosen
      } else {
        index = gates.held[gates.next]
        gates.next += 1
      }
      if gates.next > 1024, gates.next * 2 > gates.held.count {
        gates.held.removeFirst(gates.next)
        gates.next = 0
      }
      guard let continuation = gates.waiting.removeValue(forKey: index) else {
        gates.opened.insert(index)
        return (index, nil)
      }
      return (index, continuation)
    }
    guard let (index, continuation) = released else { return nil }
    ledger.markRunning(index)
    continuation?.resume()
    return index
  }

  private func hold(
    _ kind: TaskRecord.Kind, _ name: String?, _ priority: TaskPriority?,
    _ location: TaskSourceLocation
  ) -> Int {
    let index = ledger.register(
      kind, name: name, priority: priority, location: location, held: true)
    gates.withLock { $0.held.append(index) }
    return index
  }

  /// Suspends the held operation until `releaseNext` opens its gate. Deliberately ignores
  /// cancellation: a cancelled `Task { }` still runs its operation.
  ///
  /// It runs on the task's own isolation, so a released main-actor task goes on without a
  /// hop to the pool and back.
  private func gate(_ index: Int, isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) {
      (continuation: CheckedContinuation<Void, Never>) in
      let open = gates.withLock { gates -> Bool in
        if gates.opened.remove(index) != nil { return true }
        gates.waiting[index] = continuation
        return false
      }
      if open { continuation.resume() }
    }
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
    spawnHeld(
      .task, name: name, priority: priority, location: location, isolation: isolation,
      operation: operation)
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
    spawnHeldThrowing(
      .task, name: name, priority: priority, location: location, isolation: isolation,
      operation: operation)
  }

  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let index = hold(.detached, name, priority, location)
    let ledger = ledger
    let handle = base.detachedTask(name: name, priority: priority, location: location) {
      await self.gate(index)
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
    let index = hold(.detached, name, priority, location)
    let ledger = ledger
    let handle = base.detachedTask(name: name, priority: priority, location: location) {
      await self.gate(index)
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
    spawnHeld(
      .immediate, name: name, priority: priority, location: location, isolation: isolation,
      operation: operation)
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
    spawnHeldThrowing(
      .immediate, name: name, priority: priority, location: location, isolation: isolation,
      operation: operation)
  }

  /// Holds a task that keeps the caller's isolation: what `task` and `immediateTask` share.
  /// An immediate spawn is held like any other, so it starts as an ordinary task would.
  private func spawnHeld<Success: Sendable>(
    _ kind: TaskRecord.Kind, name: String?, priority: TaskPriority?,
    location: TaskSourceLocation, isolation: isolated (any Actor)?,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let index = hold(kind, name, priority, location)
    let ledger = ledger
    let handle = base.task(
      name: name, priority: priority, location: location, isolation: isolation
    ) {
      _ = isolation
      await self.gate(index)
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return await operation()
    }
    ledger.attach(handle, to: index)
    return handle
  }

  /// The throwing form of `spawnHeld`.
  private func spawnHeldThrowing<Success: Sendable>(
    _ kind: TaskRecord.Kind, name: String?, priority: TaskPriority?,
    location: TaskSourceLocation, isolation: isolated (any Actor)?,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    let index = hold(kind, name, priority, location)
    let ledger = ledger
    let handle = base.task(
      name: name, priority: priority, location: location, isolation: isolation
    ) {
      _ = isolation
      await self.gate(index)
      defer { ledger.finish(index, cancelled: Task.isCancelled) }
      return try await operation()
    }
    ledger.attach(handle, to: index)
    return handle
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
/// - Parameters:
///   - timeout: How long running tasks may take to finish before they count as leaked.
///   - body: The test, given the provider.
///   - fileID: The file an issue is reported in; the caller's by default.
///   - filePath: The full path of that file.
///   - line: The line an issue is reported at.
///   - column: The column an issue is reported at.
///   - isolation: The caller's isolation, kept across the wait.
/// - Returns: What `body` returns.
@discardableResult
public func withManualTaskProvider<R>(
  timeout: Duration = .seconds(5),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (ManualTaskProvider) async throws -> R
) async rethrows -> R {
  let provider = ManualTaskProvider()
  return try await ProviderScope.run(
    provider, ledger: provider.ledger, timeout: timeout,
    at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
    release: provider.releaseAll
  ) {
    _ = isolation  // keeps the body on the caller's actor
    return try await body(provider)
  }
}
