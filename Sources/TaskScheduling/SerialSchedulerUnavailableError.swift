/// Thrown by ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)`` when the
/// concurrency runtime does not export the hooks it works through.
public struct SerialSchedulerUnavailableError: Error, CustomStringConvertible {
  /// What is missing, in a sentence.
  public var description: String {
    "This concurrency runtime does not export the enqueue hooks the serial scheduler needs."
  }
}
