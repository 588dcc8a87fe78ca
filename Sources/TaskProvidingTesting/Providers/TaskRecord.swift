import TaskProviding

/// What a testing provider knows about one spawned task.
public struct TaskRecord: Sendable, Equatable, CustomStringConvertible {
  /// How the task was spawned: `.task`, `.detached` or `.immediate`.
  public typealias Kind = TaskSpawn.Kind

  /// Where the task is in its life.
  public enum Status: Sendable, Equatable {
    /// Spawned and held by a ``ManualTaskProvider``; its operation has not started.
    case held
    /// Handed to the runtime (scheduled or running) and not finished.
    case running
    /// Its operation has returned or thrown.
    case finished
  }

  /// Position in spawn order, from 0.
  public let index: Int
  /// How the task was spawned.
  public let kind: Kind
  /// The name the caller gave, if any.
  public let name: String?
  /// The priority the caller asked for, if any.
  public let priority: TaskPriority?
  /// Where the caller spawned the task.
  public let location: TaskSourceLocation
  /// Where the task is in its life.
  public internal(set) var status: Status
  /// Whether the task was cancelled: at the moment it finished, or by now if it has not.
  public internal(set) var isCancelled: Bool

  /// The file that spawned the task, as `Module/File.swift`.
  public var fileID: String { "\(location.fileID)" }
  /// The line of the spawn.
  public var line: UInt { location.line }
  /// Whether the task has not finished yet (held or running).
  public var isPending: Bool { status != .finished }

  /// For example `#2 task "load" spawned at App/Model.swift:42 (running, cancelled)`.
  public var description: String {
    let label =
      switch kind {
      case .task: "task"
      case .detached: "detached task"
      case .immediate: "immediate task"
      }
    let title = name.map { "\(label) \"\($0)\"" } ?? "unnamed \(label)"
    let state = isCancelled ? "\(status), cancelled" : "\(status)"
    return "#\(index) \(title) spawned at \(location) (\(state))"
  }
}
