/// Spawns unstructured tasks on behalf of production code, so tests can take control of them.
///
/// Code that would write `Task { … }` asks a provider instead: `taskProvider.task { … }`.
/// In production ``LiveTaskProvider`` forwards to `Task` unchanged; in tests a recording
/// or manual provider (module `TaskProvidingTesting`) records each task, holds it, or waits
/// for it, so assertions run after the work they depend on rather than after a guess.
///
/// Call the forms in the extension (`task { }`, `task(name:priority:) { }`,
/// `detachedTask { }`, `immediateTask { }`); they fill in the source location and the
/// caller's isolation. Conform by implementing the four `task` and `detachedTask`
/// requirements; the two `immediateTask` requirements have defaults. A closure passed to
/// `task` inherits the caller's actor isolation, as with `Task { }`; one passed to
/// `detachedTask` does not, as with `Task.detached { }`; one passed to `immediateTask` starts
/// at once on the caller's actor, as with `Task.immediate { }`.
public protocol TaskProvider: Sendable {
  /// Spawns a non-throwing task that inherits the caller's actor isolation.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The priority the caller asked for; `nil` inherits it.
  ///   - location: Where the caller spawned the task.
  ///   - isolation: The caller's isolation; `operation` usually runs on it.
  ///   - operation: The work to run.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  func task<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never>

  /// Spawns a throwing task that inherits the caller's actor isolation.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The priority the caller asked for; `nil` inherits it.
  ///   - location: Where the caller spawned the task.
  ///   - isolation: The caller's isolation; `operation` usually runs on it.
  ///   - operation: The work to run.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  func task<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error>

  /// Spawns a non-throwing task that inherits nothing from the caller, like `Task.detached`.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The priority the caller asked for.
  ///   - location: Where the caller spawned the task.
  ///   - operation: The work to run.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never>

  /// Spawns a throwing task that inherits nothing from the caller, like `Task.detached`.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The priority the caller asked for.
  ///   - location: Where the caller spawned the task.
  ///   - operation: The work to run.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  func detachedTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error>

  /// Spawns a non-throwing task that runs synchronously on the caller's actor until its
  /// first suspension, like `Task.immediate`.
  ///
  /// The default implementation spawns through `task(name:priority:location:isolation:operation:)`,
  /// so providers written before this requirement keep control of the task, but it starts
  /// later instead of at once.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The priority the caller asked for; `nil` inherits it.
  ///   - location: Where the caller spawned the task.
  ///   - isolation: The caller's isolation; `operation` starts on it.
  ///   - operation: The work to run.
  /// - Returns: The handle of the spawned task.
  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  @discardableResult
  func immediateTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext(always) @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never>

  /// Spawns a throwing task that runs synchronously on the caller's actor until its first
  /// suspension, like `Task.immediate`.
  ///
  /// The default implementation spawns through `task`, as for the non-throwing form.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The priority the caller asked for; `nil` inherits it.
  ///   - location: Where the caller spawned the task.
  ///   - isolation: The caller's isolation; `operation` starts on it.
  ///   - operation: The work to run.
  /// - Returns: The handle of the spawned task.
  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  @discardableResult
  func immediateTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext(always) @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error>
}

@available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
extension TaskProvider {
  /// Spawns through `task`, for conformers written before immediate spawns existed.
  @discardableResult
  public func immediateTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext(always) @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    task(
      name: name, priority: priority, location: location, isolation: isolation,
      operation: operation)
  }

  /// Spawns through `task`, for conformers written before immediate spawns existed.
  @discardableResult
  public func immediateTask<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    location: TaskSourceLocation,
    isolation: isolated (any Actor)?,
    @_inheritActorContext(always) @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    task(
      name: name, priority: priority, location: location, isolation: isolation,
      operation: operation)
  }

  /// Spawns a task that starts at once on the caller's actor and runs synchronously until
  /// its first suspension, like `Task.immediate { }`.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The task's priority; `nil` inherits it.
  ///   - operation: The work to run.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  public func immediateTask<Success: Sendable>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext(always) @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    immediateTask(
      name: name,
      priority: priority,
      location: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      isolation: isolation,
      operation: operation
    )
  }

  /// Spawns a throwing task that starts at once on the caller's actor and runs
  /// synchronously until its first suspension, like `Task.immediate { }`.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The task's priority; `nil` inherits it.
  ///   - operation: The work to run.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  public func immediateTask<Success: Sendable>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext(always) @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    immediateTask(
      name: name,
      priority: priority,
      location: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      isolation: isolation,
      operation: operation
    )
  }
}

extension TaskProvider {
  /// Spawns a task that inherits the caller's actor isolation, like `Task { }`.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The task's priority; `nil` inherits it.
  ///   - operation: The work to run.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  public func task<Success: Sendable>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    task(
      name: name,
      priority: priority,
      location: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      isolation: isolation,
      operation: operation
    )
  }

  /// Spawns a throwing task that inherits the caller's actor isolation, like `Task { }`.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The task's priority; `nil` inherits it.
  ///   - operation: The work to run.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  ///   - isolation: The caller's isolation, kept across the wait.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  public func task<Success: Sendable>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext @_implicitSelfCapture operation:
      sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    task(
      name: name,
      priority: priority,
      location: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      isolation: isolation,
      operation: operation
    )
  }

  /// Spawns a task that inherits nothing from the caller, like `Task.detached { }`.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The task's priority.
  ///   - operation: The work to run.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    detachedTask(
      name: name,
      priority: priority,
      location: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      operation: operation
    )
  }

  /// Spawns a throwing task that inherits nothing from the caller, like `Task.detached { }`.
  ///
  /// - Parameters:
  ///   - name: A human-readable name for the task, visible as `Task.name`.
  ///   - priority: The task's priority.
  ///   - operation: The work to run.
  ///   - fileID: The file an issue is reported in; the caller's by default.
  ///   - filePath: The full path of that file.
  ///   - line: The line an issue is reported at.
  ///   - column: The column an issue is reported at.
  /// - Returns: The handle of the spawned task.
  @discardableResult
  public func detachedTask<Success: Sendable>(
    name: String? = nil,
    priority: TaskPriority? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    detachedTask(
      name: name,
      priority: priority,
      location: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      operation: operation
    )
  }
}
