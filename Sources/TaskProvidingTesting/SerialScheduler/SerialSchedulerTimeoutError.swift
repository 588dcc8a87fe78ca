import TaskProviding

// Repeated on purpose (docs/architecture.md): every timeout error carries the same fields.

/// Thrown by ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2`` when its
/// body did not end in time.
public struct SerialSchedulerTimeoutError: Error, CustomStringConvertible {
  /// How long the body was given.
  public let timeout: Duration
  /// How many jobs ran before the scheduler gave up.
  public let jobsRun: Int
  /// Where the scheduler was started, if known.
  public let location: TaskSourceLocation?

  /// Creates the error.
  public init(timeout: Duration, jobsRun: Int, location: TaskSourceLocation? = nil) {
    self.timeout = timeout
    self.jobsRun = jobsRun
    self.location = location
  }

  /// What happened, where, and what was done about it.
  public var description: String {
    let site = location.map { "withSerialScheduler at \($0): " } ?? ""
    return """
      \(site)The scheduled body did not end within \(TimeoutScale.describe(timeout)) \
      (\(jobsRun) jobs ran). It may await something that never comes. Its task was \
      cancelled.
      """
  }
}
