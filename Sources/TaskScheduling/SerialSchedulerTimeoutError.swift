/// Thrown by ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)`` when its
/// body did not end in time.
public struct SerialSchedulerTimeoutError: Error, CustomStringConvertible {
  /// How long the body was given.
  public let timeout: Duration
  /// How many jobs ran before the scheduler gave up.
  public let jobsRun: Int

  /// What happened, in a sentence.
  public var description: String {
    "The scheduled body did not end within \(timeout); \(jobsRun) jobs ran."
  }
}
