import TaskProviding

extension ControlledFunction {
  /// Thrown to a call's caller when the test has not answered the call within the function's
  /// ``ControlledFunction/answerTimeout``.
  public struct UnansweredCallError: Error, CustomStringConvertible {
    /// The call, as its description reads (`upload #2: a.txt`).
    public let call: String
    /// How long it waited.
    public let timeout: Duration

    public var description: String {
      """
      \(call) was not answered within \(TimeoutScale.describe(timeout)). The test may \
      have stopped before answering it, or may be waiting for something its caller can do \
      only once answered.
      """
    }
  }

  /// Thrown by ``ControlledFunction/nextCall(timeout:fileID:filePath:line:column:isolation:)``
  /// when no call arrives in time.
  public struct NoCallError: Error, CustomStringConvertible {
    /// What the calls are, as the function was named.
    public let name: String
    /// How long the wait lasted.
    public let timeout: Duration
    /// How many calls the function had received in all.
    public let received: Int
    /// Where `nextCall()` was called, if known.
    public var location: TaskSourceLocation? = nil

    /// What was awaited, where, and what may have gone wrong.
    public var description: String {
      let site = location.map { "nextCall() at \($0): " } ?? ""
      return """
        \(site)No \(name) arrived within \(TimeoutScale.describe(timeout)) \
        (\(received) received in all). The code under test may not have made it, or may be \
        waiting on a task that has not run.
        """
    }
  }
}
