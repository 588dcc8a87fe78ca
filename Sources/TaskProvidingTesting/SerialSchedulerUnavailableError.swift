import TaskProviding

/// Thrown by ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2`` when the
/// concurrency runtime does not export the hooks it works through.
public struct SerialSchedulerUnavailableError: Error, CustomStringConvertible {
  /// Where the scheduler was asked for, if known.
  public let location: TaskSourceLocation?

  /// Creates the error.
  public init(location: TaskSourceLocation? = nil) {
    self.location = location
  }

  /// What is missing, and where it was needed.
  public var description: String {
    let site = location.map { "withSerialScheduler at \($0): " } ?? ""
    return """
      \(site)This concurrency runtime does not export the enqueue hooks the serial scheduler \
      needs (swift_task_enqueueGlobal_hook, swift_task_getMainExecutor_hook).
      """
  }
}
