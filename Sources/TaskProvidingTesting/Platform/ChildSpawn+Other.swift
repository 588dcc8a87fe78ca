#if !os(Linux) || TP_NO_CHILD_PROCESS
  /// Elsewhere no child process is started: on iOS, tvOS, watchOS and visionOS a process may
  /// not start another; on macOS the binary that runs the tests is a helper (`swift test`) or
  /// a test host (Xcode), not the test bundle, and starting the right one is not written yet;
  /// and a build that sets `TP_NO_CHILD_PROCESS` asks for this path on Linux too.
  /// Explorations run in the test's own process, where a trapping schedule ends the run.
  package enum ChildSpawn {
    /// No child can be started here.
    package static let isAvailable = false

    /// No children start here: one, for the limit on children at once.
    static let processors = 1

    /// Why, as a report gives it.
    static let unavailable =
      "exploring in a child process needs Linux; the exploration ran in the test's own "
      + "process, where a schedule that traps ends the test run"

    /// Starts nothing.
    static func run(
      arguments: [String], environment: [String: String], standardError: String
    ) -> ChildProcess.Ending {
      .notStarted(unavailable)
    }
  }
#endif
