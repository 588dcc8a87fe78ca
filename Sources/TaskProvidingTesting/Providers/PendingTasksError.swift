import TaskProviding

/// Thrown when tasks are still pending at the end of a wait.
public struct PendingTasksError: Error, Equatable, CustomStringConvertible {
  /// How long the wait lasted.
  public let timeout: Duration
  /// The tasks that had not finished, in spawn order.
  public let pending: [TaskRecord]
  /// The wait that gave up, as `waitForAll()`.
  public let wait: String
  /// Where the wait was called, if known.
  public let location: TaskSourceLocation?

  /// Creates the error.
  public init(
    timeout: Duration, pending: [TaskRecord], wait: String = "A wait",
    location: TaskSourceLocation? = nil
  ) {
    self.timeout = timeout
    self.pending = pending
    self.wait = wait
    self.location = location
  }

  /// A headline naming the wait and its line, then one line per pending task with its name
  /// and spawn location.
  public var description: String {
    let site = location.map { " at \($0)" } ?? ""
    return Self.describe(
      pending,
      headline: "\(wait)\(site) timed out after \(TimeoutScale.describe(timeout)) with")
  }

  static func describe(
    _ pending: [TaskRecord], headline: String, footer: String? = nil
  ) -> String {
    let noun = pending.count == 1 ? "task" : "tasks"
    let lines = ["\(headline) \(pending.count) pending \(noun):"] + pending.map { "  \($0)" }
    return (lines + (footer.map { [$0] } ?? [])).joined(separator: "\n")
  }
}
