import LockSupport

/// The issues a test's body records in one schedule the explorer runs: the failing ones are
/// the schedule's failure, and are not reported as they come, since the search runs many
/// schedules to find and shrink one. Of the others (warnings, known issues), only the first
/// schedule's are let through, so that each is reported once.
///
/// Each schedule has its own: a body left unfinished by an earlier schedule, which goes on in
/// real time once that schedule's scope closes, records into its own.
final class ScheduleIssues<Recorded: ExploredIssue>: Sendable {
  private struct State {
    var failing: [Recorded] = []
    var thrown: String?
  }

  private let state = Locked(State())
  /// Whether issues that fail no test are reported.
  private let passesOthers: Bool

  init(passesOthers: Bool) {
    self.passesOthers = passesOthers
  }

  /// Takes `issue` as the body records it: `nil` keeps it from being reported now.
  func take(_ issue: Recorded) -> Recorded? {
    guard issue.isFailure else { return passesOthers ? issue : nil }
    state.withLock { $0.failing.append(issue) }
    return nil
  }

  /// Notes what the body threw. `saidAlready`: the error only ends a body whose issue says it
  /// already (a failed `#require`), and counts only if no issue was recorded.
  func threw(_ error: any Error, saidAlready: Bool = false) {
    let text = "\(error)"
    state.withLock { state in
      if saidAlready, !state.failing.isEmpty { return }
      state.thrown = text
    }
  }

  /// What failed: the failing issues, and what the body threw; `nil` if nothing did.
  var failure: ScheduleIssuesFailure<Recorded>? {
    state.withLock { state in
      guard !state.failing.isEmpty || state.thrown != nil else { return nil }
      return ScheduleIssuesFailure(issues: state.failing, thrown: state.thrown)
    }
  }
}

/// What a schedule of a test's body recorded or threw, as the error that makes the schedule
/// count as failing.
struct ScheduleIssuesFailure<Recorded: ExploredIssue>: Error, Sendable,
  CustomStringConvertible
{
  /// The failing issues, in the order recorded.
  let issues: [Recorded]
  /// What the body threw, if it did, in words.
  let thrown: String?

  /// The reason a report gives, as a person reads it.
  var description: String {
    var parts = issues.map(\.summary)
    if let thrown { parts.append("the test threw \(thrown)") }
    return parts.joined(separator: "; ")
  }
}
