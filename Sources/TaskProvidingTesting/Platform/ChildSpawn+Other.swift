#if !os(Linux) && !os(macOS)
  /// Elsewhere no child process can be started: on iOS, tvOS, watchOS and visionOS a process
  /// may not start another, and on a platform the toolkit does not know it does not try.
  /// Explorations run in the test's own process, where a trapping schedule ends the run.
  enum ChildSpawn {
    /// No child can be started here.
    static let isAvailable = false

    /// No children start here: one, for the bound on children at once.
    static let processors = 1

    /// Why, as a report gives it.
    static let unavailable =
      "exploring in a child process needs Linux or macOS; the exploration ran in the test's "
      + "own process"

    /// Starts nothing.
    static func run(
      arguments: [String], environment: [String: String], standardError: String
    ) -> ChildProcess.Ending {
      .notStarted(unavailable)
    }
  }
#endif
