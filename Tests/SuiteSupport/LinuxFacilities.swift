import TaskProvidingTesting

/// Which of the explorer's Linux-only facilities this build has: all of them on Linux, none
/// on Apple's platforms or in a build that sets `TP_NO_TASK_CREATION_HOOK`,
/// `TP_NO_CHILD_PROCESS` and `TP_NO_SYMBOLICATION`, as CI's second build does.
public enum LinuxFacilities {
  /// Whether tasks the scenario's code creates with `Task { }` get the explorer's executor.
  public static let seeTaskCreation = TaskCreation.isWatched

  /// Whether an exploration runs in a child process, where a trap is reported.
  public static let startChildren = ChildSpawn.isAvailable

  /// Whether a failure's steps name functions and lines.
  public static let namePlaces: Bool = {
    #if os(Linux) && canImport(Glibc) && (arch(x86_64) || arch(arm64)) && !TP_NO_SYMBOLICATION
      return true
    #else
      return false
    #endif
  }()

  /// Whether `report` covers every schedule of its scenario or, where task creation cannot be
  /// watched, says that tasks it cannot see may have hopped outside its choices, and so does
  /// not call its space complete.
  public static func coversOrSaysWhy(_ report: ExplorationReport) -> Bool {
    if report.coversEverySchedule { return true }
    return !seeTaskCreation && !report.isComplete
      && report.outsideWork?.contains("does not let the explorer see tasks being created") == true
  }
}
