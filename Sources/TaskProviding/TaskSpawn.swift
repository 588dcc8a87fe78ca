/// What a caller asked for when it spawned a task: everything but the operation.
///
/// A ``TaskProvider`` receives one with each spawn. Its ``kind`` says which call form made
/// it, so a conformer writes one method per result type instead of one per call form.
public struct TaskSpawn: Sendable, Equatable {
  /// Which call form spawned the task.
  public enum Kind: Sendable, Hashable {
    /// `task { }`: inherits the caller's isolation, priority and task-local values, like
    /// `Task { }`.
    case task
    /// `detachedTask { }`: inherits nothing, like `Task.detached { }`.
    case detached
    /// `immediateTask { }`: starts at once on the caller's actor and runs synchronously
    /// until its first suspension, like `Task.immediate { }`.
    case immediate
  }

  /// Which call form spawned the task.
  public var kind: Kind
  /// The name the caller gave, visible as `Task.name`.
  public var name: String?
  /// The priority the caller asked for; `nil` inherits it (or, detached, takes the default).
  public var priority: TaskPriority?
  /// Where the caller spawned the task.
  public var location: TaskSourceLocation

  /// Creates a description of a spawn.
  public init(
    _ kind: Kind, name: String? = nil, priority: TaskPriority? = nil,
    location: TaskSourceLocation
  ) {
    self.kind = kind
    self.name = name
    self.priority = priority
    self.location = location
  }
}
