import TaskProviding

// Repeated on purpose (docs/architecture.md): every wait spells out its timeout, call-site and
// isolation parameters.

extension Task {
  /// The task's value, waited for at most `timeout`: `await task.value` with a timeout, which
  /// only bounds a failure.
  ///
  /// Use it wherever a test awaits a task it holds (a tap spawned as `Task { await
  /// model.tap() }`), so that a regression that leaves the task waiting fails the test within
  /// seconds, at this line, instead of holding it until its time limit or forever.
  ///
  /// The source-location parameters default to the caller's: see `TaskSourceLocation`.
  ///
  /// - `timeout`: Bounds a failure only; the value returns as soon as the task ends.
  /// - `isolation`: The caller's isolation, kept across the wait.
  /// - Returns: The task's value.
  /// - Throws: What the task threw, if it can throw; ``TaskTimeoutError`` naming this call's
  ///   line; or `CancellationError` if the waiting task is cancelled. The awaited task is not
  ///   cancelled either way.
  public func value(
    timeout: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Success {
    try await boundedResult(
      of: self, timeout: timeout,
      at: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    ).get()
  }
}

/// Thrown by `Task.value(timeout:)` when the task has not ended in time.
public struct TaskTimeoutError: Error, CustomStringConvertible {
  /// How long the wait lasted.
  public let timeout: Duration
  /// Where `value(timeout:)` was called, if known.
  public let location: TaskSourceLocation?

  /// Creates the error.
  public init(timeout: Duration, location: TaskSourceLocation? = nil) {
    self.timeout = timeout
    self.location = location
  }

  /// What was awaited, where, and what may have gone wrong.
  public var description: String {
    let site = location.map { "value(timeout:) at \($0): " } ?? ""
    return """
      \(site)The awaited task did not end within \(TimeoutScale.describe(timeout)). It may \
      be waiting for an answer, a held task or a signal that the test has not given.
      """
  }
}

/// The task's result, or a throw at `timeout` naming `location`.
///
/// A task offers no way to be told when it ends other than awaiting it, so a small watcher
/// task awaits it and resumes this wait; the wait itself keeps the caller's isolation and
/// its timeout is the shared deadline timer, not a timer task.
private func boundedResult<Success: Sendable, Failure: Error>(
  of task: Task<Success, Failure>, timeout: Duration, at location: TaskSourceLocation,
  isolation: isolated (any Actor)? = #isolation
) async throws -> Result<Success, Failure> {
  let ended = Waiter()
  Task<Void, Never>.detached { ended.resume(.value(await task.result)) }
  switch await ended.wait(timeout: timeout) {
  case .value(let result):
    // Only the watcher above resumes this waiter with a value, and always with this type.
    return result as! Result<Success, Failure>
  case .cancelled:
    throw CancellationError()
  case .timedOut:
    throw TaskTimeoutError(timeout: timeout, location: location)
  }
}
