/// Why a schedule failed.
struct ScheduleFailure: Equatable {
  /// What went wrong, without where: a shrunk schedule must fail the same way, possibly at
  /// another step.
  enum Kind: Hashable {
    case invariant(String)
    case finalCheck(String)
    case threw(String)
    case stuck
    case pendingTasks
    case tooManySteps
    case tooManyJobs
    case replay
    case unavailable
    case hookReplaced
  }

  let kind: Kind
  let reason: String

  /// Whether the scenario threw.
  var threw: Bool {
    if case .threw = kind { return true }
    return false
  }

  /// Why nothing more can come: nothing outside the scope was under way, or what was did
  /// not bring a job in time.
  static func stuckCause(_ waited: Duration?) -> String {
    guard let waited else {
      return "; nothing outside the explorer's view was under way (no sleep, no job from"
        + " another thread so far), so it awaits something no task, call or clock will give"
        + " (if a thread of its own or a dispatch queue resumes it, pass outsideWait:)"
    }
    return "; nothing came from outside the explorer's view (a sleep, a thread of its own,"
      + " a dispatch queue) within \(TimeoutScale.describe(waited))"
  }

  /// What a stuck schedule adds when `count` of its tasks ran without the scope's executor:
  /// a sleep of theirs keeps real time, unseen, and may be what it waits for.
  static func unseenSleepCause(_ count: Int) -> String {
    guard count > 0 else { return "" }
    return "; \(count == 1 ? "a task" : "\(count) tasks") of the scenario ran without the"
      + " explorer's executor (started with `Task { }` where this platform does not let the"
      + " explorer see tasks being created), and a sleep of such a task keeps real time: spawn it"
      + " through the provider to have its sleeps on virtual time, or give `outsideWait` as long"
      + " as its sleeps"
  }

  /// Where a schedule stopped, in the units its steps are narrated in: jobs run and choices
  /// taken, a story's lines being either.
  static func after(choices: Int, jobs: Int) -> String {
    guard choices + jobs > 0 else { return " before anything ran" }
    return " after \(jobs) \(jobs == 1 ? "job" : "jobs") and \(choices)"
      + " \(choices == 1 ? "choice" : "choices")"
  }

  /// A replay that names an option missing at `decision`.
  static func replayEnded(at decision: Int) -> ScheduleFailure {
    ScheduleFailure(
      kind: .replay,
      reason: "the replay string names an option that is not there at decision \(decision)")
  }
}
