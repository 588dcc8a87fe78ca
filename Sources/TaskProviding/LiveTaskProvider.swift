/// The production provider: forwards every spawn to `Task`, `Task.detached` or
/// `Task.immediate`, nothing else.
public struct LiveTaskProvider: TaskProvider {
  /// Creates the live provider.
  public init() {}

  @discardableResult
  public func task<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    Task(name: name, priority: priority, operation: operation)
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
    Task(name: name, priority: priority, operation: operation)
  }

  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    Task.detached(name: name, priority: priority, operation: operation)
  }

  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    Task.detached(name: name, priority: priority, operation: operation)
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
    Task.immediate(name: name, priority: priority, operation: operation)
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
    Task.immediate(name: name, priority: priority, operation: operation)
  }
}
