// Repeated on purpose (docs/architecture.md): every spawn form spells out its name, priority and
// call-site parameters, as Swift shares no parameter list between functions and `#fileID` must be
// each call's default.

/// Spawns unstructured tasks on behalf of production code, so tests can take control of them.
///
/// Code that would write `Task { … }` asks a provider instead: `taskProvider.task { … }`.
/// In production ``LiveTaskProvider`` forwards to `Task` unchanged; in tests a recording
/// or manual provider (module `TaskProvidingTesting`) records each task, holds it, or waits
/// for it, so assertions run after the work they depend on rather than after a guess.
///
/// Callers use the call forms: `task { }`, `detachedTask { }` and `immediateTask { }`, each
/// throwing or not, each with `name:` and `priority:`. They fill in the caller's isolation
/// and source location (see ``TaskSourceLocation``). A closure passed to `task` inherits the
/// caller's actor isolation, as with `Task { }`; one passed to `detachedTask` does not, as
/// with `Task.detached { }`; one passed to `immediateTask` starts at once on the caller's
/// actor, as with `Task.immediate { }`.
///
/// A conformer writes the two `spawn(_:isolation:operation:)` requirements, one per result
/// type; the ``TaskSpawn/kind`` of each spawn says which call form made it. Their
/// `operation` parameter inherits the caller's actor context, so a wrapper closure that
/// names `isolation` runs on the caller's actor, as ``LiveTaskProvider`` would run the
/// operation itself.
public protocol TaskProvider: Sendable {
  /// Spawns a non-throwing task as `spawn` describes.
  ///
  /// - Parameters:
  ///   - spawn: The call form, name, priority and source location the caller gave.
  ///   - isolation: The caller's isolation, for a wrapper closure that must keep it; `nil`
  ///     for a detached spawn.
  ///   - operation: The work to run, already isolated as the call form decided.
  /// - Returns: The handle of the spawned task.
  func spawn<Success: Sendable>(
    _ spawn: TaskSpawn,
    isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never>

  /// Spawns a throwing task as `spawn` describes.
  ///
  /// - Parameters:
  ///   - spawn: The call form, name, priority and source location the caller gave.
  ///   - isolation: The caller's isolation, for a wrapper closure that must keep it; `nil`
  ///     for a detached spawn.
  ///   - operation: The work to run, already isolated as the call form decided.
  /// - Returns: The handle of the spawned task.
  func spawn<Success: Sendable>(
    _ spawn: TaskSpawn,
    isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error>
}

extension TaskProvider {
  /// Spawns a task that inherits the caller's actor isolation, like `Task { }`.
  ///
  /// The source-location parameters default to the caller's: see ``TaskSourceLocation``.
  ///
  /// - `name`: A human-readable name for the task, visible as `Task.name`.
  /// - `priority`: The task's priority; `nil` inherits it.
  /// - `isolation`: The caller's isolation, which `operation` inherits.
  /// - `operation`: The work to run.
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
    let location = TaskSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    return spawn(
      TaskSpawn(.task, name: name, priority: priority, location: location),
      isolation: isolation, operation: operation)
  }

  /// Spawns a throwing task that inherits the caller's actor isolation, like `Task { }`.
  ///
  /// The source-location parameters default to the caller's: see ``TaskSourceLocation``.
  ///
  /// - `name`: A human-readable name for the task, visible as `Task.name`.
  /// - `priority`: The task's priority; `nil` inherits it.
  /// - `isolation`: The caller's isolation, which `operation` inherits.
  /// - `operation`: The work to run.
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
    let location = TaskSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    return spawn(
      TaskSpawn(.task, name: name, priority: priority, location: location),
      isolation: isolation, operation: operation)
  }

  /// Spawns a task that inherits nothing from the caller, like `Task.detached { }`.
  ///
  /// The source-location parameters default to the caller's: see ``TaskSourceLocation``.
  ///
  /// - `name`: A human-readable name for the task, visible as `Task.name`.
  /// - `priority`: The task's priority.
  /// - `operation`: The work to run.
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
    let location = TaskSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    return spawn(
      TaskSpawn(.detached, name: name, priority: priority, location: location),
      isolation: nil, operation: operation)
  }

  /// Spawns a throwing task that inherits nothing from the caller, like `Task.detached { }`.
  ///
  /// The source-location parameters default to the caller's: see ``TaskSourceLocation``.
  ///
  /// - `name`: A human-readable name for the task, visible as `Task.name`.
  /// - `priority`: The task's priority.
  /// - `operation`: The work to run.
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
    let location = TaskSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    return spawn(
      TaskSpawn(.detached, name: name, priority: priority, location: location),
      isolation: nil, operation: operation)
  }

  /// Spawns a task that starts at once on the caller's actor and runs synchronously until
  /// its first suspension, like `Task.immediate { }`.
  ///
  /// The source-location parameters default to the caller's: see ``TaskSourceLocation``.
  ///
  /// - `name`: A human-readable name for the task, visible as `Task.name`.
  /// - `priority`: The task's priority; `nil` inherits it.
  /// - `isolation`: The caller's isolation, which `operation` starts on.
  /// - `operation`: The work to run.
  /// - Returns: The handle of the spawned task.
  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
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
    let location = TaskSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    return spawn(
      TaskSpawn(.immediate, name: name, priority: priority, location: location),
      isolation: isolation, operation: operation)
  }

  /// Spawns a throwing task that starts at once on the caller's actor and runs
  /// synchronously until its first suspension, like `Task.immediate { }`.
  ///
  /// The source-location parameters default to the caller's: see ``TaskSourceLocation``.
  ///
  /// - `name`: A human-readable name for the task, visible as `Task.name`.
  /// - `priority`: The task's priority; `nil` inherits it.
  /// - `isolation`: The caller's isolation, which `operation` starts on.
  /// - `operation`: The work to run.
  /// - Returns: The handle of the spawned task.
  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
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
    let location = TaskSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    return spawn(
      TaskSpawn(.immediate, name: name, priority: priority, location: location),
      isolation: isolation, operation: operation)
  }
}
