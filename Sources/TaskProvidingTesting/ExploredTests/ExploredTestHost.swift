/// A test framework's side of a test explored as written: how its body runs once with the
/// issues it records taken, and how a failure is shown. Swift Testing's trait and XCTest's
/// ``ExploringTestCase`` each have one; ``ExploredTest`` does the rest the same way for both.
protocol ExploredTestHost: Sendable {
  /// An issue as the framework records it.
  associatedtype Recorded: ExploredIssue

  /// The test's name, as a person reads it.
  var name: String { get }
  /// Where the test is.
  var site: CallSite { get }
  /// What a test calls to replay one schedule, up to its argument: `.exploring`.
  static var replayCall: String { get }

  /// Calls the test's body once, the issues it records taken by `issues`.
  func call(recordingInto issues: ScheduleIssues<Recorded>) async

  /// Shows the failure: `issues` recorded in the failing schedule, each where it was
  /// recorded, the first followed by `story`; `reason` where the schedule recorded none.
  func report(
    _ issues: ScheduleIssuesFailure<Recorded>?, reason: String, story: String)

  /// Shows a warning that fails nothing.
  func warn(_ text: String)
}

/// An issue a test's body records, as the explorer needs to know it.
protocol ExploredIssue: Sendable {
  /// Whether it fails the test (not a warning, not a known issue).
  var isFailure: Bool { get }
  /// What it is and where, in a few words: `an expectation failed (Tests/ATest.swift:12)`.
  var summary: String { get }
}
