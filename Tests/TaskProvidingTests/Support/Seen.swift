import ConcurrencyExtras
import TaskProviding
import TaskProvidingTesting
import Testing

/// What a task saw of itself while it ran.
struct Seen: Sendable, Equatable {
  var name: String?
  var priority: TaskPriority
  var onMainActor: Bool
  var isCancelled: Bool

  static func current(_ isolation: isolated (any Actor)? = #isolation) -> Seen {
    Seen(
      name: Task.name,
      priority: Task.currentPriority,
      onMainActor: isolation === MainActor.shared,
      isCancelled: Task.isCancelled)
  }

  /// The same, from a throwing operation (it throws if the task was cancelled).
  static func throwing(_ isolation: isolated (any Actor)? = #isolation) throws -> Seen {
    try Task.checkCancellation()
    return current(isolation)
  }
}
