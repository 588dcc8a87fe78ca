import TaskProviding

/// Thrown by ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2`` when the
/// concurrency runtime does not export the hooks it works through.
///
/// The scheduler needs `swift_task_getMainExecutor_hook`, first in Swift 6.1's runtime: an
/// app's tests on macOS 15.0–15.3 or iOS 18.0–18.3 get this error, with the names of what
/// is missing, instead of a scheduler that would lose the main actor's jobs.
public struct SerialSchedulerUnavailableError: Error, CustomStringConvertible {
  /// Where the scheduler was asked for, if known.
  public let location: TaskSourceLocation?

  /// The runtime's entry points that were not found, by name.
  public let missingEntryPoints: [String]

  /// Creates the error; `missingEntryPoints` defaults to what this process's runtime lacks.
  public init(location: TaskSourceLocation? = nil, missingEntryPoints: [String]? = nil) {
    self.location = location
    self.missingEntryPoints = missingEntryPoints ?? RuntimeHooks.missing
  }

  /// What is missing, where it was needed, and which runtimes have it.
  public var description: String {
    let site = location.map { "withSerialScheduler at \($0): " } ?? ""
    let names =
      missingEntryPoints.isEmpty
      ? "the enqueue hooks the serial scheduler needs"
      : missingEntryPoints.joined(separator: ", ")
    return """
      \(site)This concurrency runtime does not export \(names). Swift 6.1's runtime and later \
      do: macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4 and visionOS 2.4 or later, or the \
      toolchain's own runtime on Linux.
      """
  }
}
