// Repeated on purpose (docs/architecture.md): the non-throwing and the throwing spawn are two
// requirements of `TaskProvider`, each written out in full.

/// The production provider: forwards every spawn to `Task`, `Task.detached` or
/// `Task.immediate`, nothing else.
public struct LiveTaskProvider: TaskProvider {
  /// Creates the live provider.
  public init() {}

  @discardableResult
  public func spawn<Success: Sendable>(
    _ spawn: TaskSpawn,
    isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    switch spawn.kind {
    case .task:
      return Task(name: spawn.name, priority: spawn.priority, operation: operation)
    case .detached:
      return Task.detached(name: spawn.name, priority: spawn.priority, operation: operation)
    case .immediate:
      if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
        return Task.immediate(name: spawn.name, priority: spawn.priority, operation: operation)
      }
      return Task(name: spawn.name, priority: spawn.priority, operation: operation)
    }
  }

  @discardableResult
  public func spawn<Success: Sendable>(
    _ spawn: TaskSpawn,
    isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    switch spawn.kind {
    case .task:
      return Task(name: spawn.name, priority: spawn.priority, operation: operation)
    case .detached:
      return Task.detached(name: spawn.name, priority: spawn.priority, operation: operation)
    case .immediate:
      if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
        return Task.immediate(name: spawn.name, priority: spawn.priority, operation: operation)
      }
      return Task(name: spawn.name, priority: spawn.priority, operation: operation)
    }
  }
}
