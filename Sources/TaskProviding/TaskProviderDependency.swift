import IssueReporting

#if SwiftDependencies
  import Dependencies

  extension DependencyValues {
    /// The provider that production code spawns its unstructured tasks through.
    ///
    /// Live value: ``LiveTaskProvider``. Test value: ``UnimplementedTaskProvider``, which
    /// reports an issue for each spawn and then runs the task live. A test that spawns
    /// without choosing how to control the task is exactly where flakiness starts, so it
    /// must say what it wants: a `RecordingTaskProvider` to await tasks, a
    /// `ManualTaskProvider` to step them, or `LiveTaskProvider()` to opt out on purpose.
    public var taskProvider: any TaskProvider {
      get { self[TaskProviderKey.self] }
      set { self[TaskProviderKey.self] = newValue }
    }
  }

  private enum TaskProviderKey: DependencyKey {
    static let liveValue: any TaskProvider = LiveTaskProvider()
    static let testValue: any TaskProvider = UnimplementedTaskProvider()
  }
#endif

/// A provider that reports an issue for every spawn, then runs the task live so the code
/// under test does not hang. It is the test value of `@Dependency(\.taskProvider)`, and a
/// default an adopter without swift-dependencies can give its own initializers in tests.
public struct UnimplementedTaskProvider: TaskProvider {
  private let live = LiveTaskProvider()

  /// Creates the provider.
  public init() {}

  private func report(_ kind: String, _ name: String?, _ location: TaskSourceLocation) {
    let label = name.map { " \"\($0)\"" } ?? ""
    reportIssue(
      """
      Unimplemented: @Dependency(\\.taskProvider) spawned \(kind)\(label) at \(location). \
      Override it in the test (RecordingTaskProvider to await tasks, ManualTaskProvider to \
      step them, LiveTaskProvider to run them unobserved).
      """,
      fileID: location.fileID,
      filePath: location.filePath,
      line: location.line,
      column: location.column
    )
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
    report("a task", name, location)
    return live.task(
      name: name, priority: priority, location: location, isolation: isolation,
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
    report("a task", name, location)
    return live.task(
      name: name, priority: priority, location: location, isolation: isolation,
      operation: operation)
  }

  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    report("a detached task", name, location)
    return live.detachedTask(
      name: name, priority: priority, location: location, operation: operation)
  }

  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    report("a detached task", name, location)
    return live.detachedTask(
      name: name, priority: priority, location: location, operation: operation)
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
    report("an immediate task", name, location)
    return live.immediateTask(
      name: name, priority: priority, location: location, isolation: isolation,
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
    report("an immediate task", name, location)
    return live.immediateTask(
      name: name, priority: priority, location: location, isolation: isolation,
      operation: operation)
  }
}
