import IssueReporting

// Repeated on purpose (docs/architecture.md): the non-throwing and the throwing spawn are two
// requirements of `TaskProvider`, each written out in full.

/// A provider that reports an issue for every spawn, then runs the task live so the code
/// under test does not hang. It is the test value of `@Dependency(\.taskProvider)`, and a
/// default an adopter without swift-dependencies can give its own initializers in tests.
public struct UnimplementedTaskProvider: TaskProvider {
  private let live = LiveTaskProvider()

  /// Creates the provider.
  public init() {}

  @discardableResult
  public func spawn<Success: Sendable>(
    _ spawn: TaskSpawn,
    isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    report(spawn)
    return live.spawn(spawn, isolation: isolation, operation: operation)
  }

  @discardableResult
  public func spawn<Success: Sendable>(
    _ spawn: TaskSpawn,
    isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    report(spawn)
    return live.spawn(spawn, isolation: isolation, operation: operation)
  }

  private func report(_ spawn: TaskSpawn) {
    let kind =
      switch spawn.kind {
      case .task: "a task"
      case .detached: "a detached task"
      case .immediate: "an immediate task"
      }
    let label = spawn.name.map { " \"\($0)\"" } ?? ""
    let location = spawn.location
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
}
