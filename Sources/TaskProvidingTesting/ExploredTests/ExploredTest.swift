import LockSupport
import Testing

/// One test case run under the explorer by the `exploring` trait: the body is the scenario,
/// and the issues it records are the checks.
struct ExploredTest: Sendable {
  let test: Test
  let testCase: Test.Case?
  let strategy: ExplorationStrategy
  let replay: String?

  /// How many times a failing test is run plainly, at most, to tell whether the runtime
  /// alone makes it fail.
  static let plainRuns = 100
  /// How long those plain runs may take in all.
  static let plainRunsTime = Duration.seconds(2)
  /// How long a call of the body left under way by a schedule may take to return.
  static let leftCallBound = Duration.seconds(30)

  /// Explores `body`, reports what failed, and returns once no call of `body` is under way.
  func run(_ body: @escaping @Sendable () async throws -> Void) async {
    let calls = BodyCallsInFlight()
    let schedules = Locked(0)
    let lastFailure = Locked<ScheduleIssuesFailure?>(nil)
    let test = test
    let testCase = testCase
    let site = CallSite(test.sourceLocation)
    // A test may time a sleep with a real clock, or poll for work that takes real time:
    // sleeps keep real time as well (``SleepFloor``), as in a plain run.
    let report = await ExplorationRoute.$inProcess.withValue(true) {
      await SleepFloor.$isReal.withValue(true) {
        await exploringUnreported(strategy, replay: replay, at: site) { _ in
          let first = schedules.withLock { count -> Bool in
            count += 1
            return count == 1
          }
          let issues = ScheduleIssues(passesOthers: first)
          calls.begin()
          await Self.call(body, of: test, testCase, recordingInto: issues)
          calls.end()
          if let failure = issues.failure {
            lastFailure.withLock { $0 = failure }
            throw failure
          }
        }
      }
    }
    if let failure = report.failure {
      // The narration's run of the reduced schedule is the last that failed.
      let issues = lastFailure.withLock { $0 }
      let plain = failure.reason.hasPrefix(Self.bodyFailed) ? await plainly(body) : nil
      record(failure, issues: issues, plain: plain)
    } else if let nondeterminism = report.nondeterminism {
      Issue.record(
        Comment(rawValue: "The exploration met uncontrolled nondeterminism: \(nondeterminism)"),
        severity: .warning, sourceLocation: test.sourceLocation)
    }
    guard await calls.waitUntilNoneRun(within: FailureBoundScale.scaled(Self.leftCallBound))
    else {
      // Swift Testing lent the body for the test's duration: ending the test with a call of
      // it under way would leave that call running code that is gone.
      fatalError(
        "\(test.sourceLocation.fileID):\(test.sourceLocation.line): a schedule of the explored"
          + " test '\(test.name)' left its body waiting for something that never came, and it"
          + " has not returned within \(FailureBoundScale.describe(Self.leftCallBound)). The test"
          + " cannot end while its body runs; its failure is reported above.")
    }
  }

  /// `text` as a sentence.
  private static func sentence(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst() + "."
  }

  /// What a failure's reason begins with when the body recorded an issue or threw.
  private static let bodyFailed = "the scenario threw "

  /// Calls `body` once, its issues taken by `issues`.
  private static func call(
    _ body: @Sendable () async throws -> Void, of test: Test, _ testCase: Test.Case?,
    recordingInto issues: ScheduleIssues
  ) async {
    let handler = IssueHandlingTrait.compactMapIssues { issues.take($0) }
    do {
      try await handler.provideScope(for: test, testCase: testCase, performing: body)
    } catch {
      issues.threw(error)
    }
  }

  /// How often `body`, run plainly on the real runtime, fails: the runs and the failures.
  private func plainly(
    _ body: @Sendable () async throws -> Void
  ) async -> (runs: Int, failures: Int) {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: Self.plainRunsTime)
    var runs = 0
    var failures = 0
    while runs < Self.plainRuns, clock.now < deadline {
      let issues = ScheduleIssues(passesOthers: false)
      await Self.call(body, of: test, testCase, recordingInto: issues)
      runs += 1
      if issues.failure != nil { failures += 1 }
    }
    return (runs, failures)
  }

  /// Reports `failure` once: the schedule's own issues, each where it was recorded, the first
  /// with the schedule's steps and replay string.
  private func record(
    _ failure: ExplorationFailure, issues: ScheduleIssuesFailure?,
    plain: (runs: Int, failures: Int)?
  ) {
    var story: [String] = [
      "Explored (\(failure.strategy)), the test failed on schedule \(failure.scheduleNumber).",
      "Replay it with .exploring(replay: \"\(failure.replay)\").",
    ]
    if let plain {
      story.append(
        plain.failures == 0
          ? "Run plainly \(plain.runs) times, it passed every time: the runtime rarely or never"
            + " takes this order here."
          : "Run plainly \(plain.runs) times, it failed \(plain.failures) times: it is flaky on"
            + " the real runtime too.")
    }
    if let nondeterminism = failure.nondeterminism {
      story.append("Run once more, it did not fail as it had: \(nondeterminism)")
    }
    // The scenario the explorer ran is the test's body.
    let steps = failure.steps.enumerated().map {
      "  \($0.offset + 1). " + $0.element.replacing("the scenario", with: "the test")
    }
    story.append(steps.isEmpty ? "It failed before the first choice." : "Steps:")
    let told = (story + steps).joined(separator: "\n")
    guard let issues, !issues.issues.isEmpty else {
      let reason =
        issues?.thrown.map { "The test threw \($0)." }
        ?? Self.sentence(failure.reason.replacing("the scenario", with: "the test"))
      Issue.record(
        Comment(rawValue: reason + "\n" + told), sourceLocation: test.sourceLocation)
      return
    }
    for (index, issue) in issues.issues.enumerated() {
      let said = ([issue.kind.description] + issue.comments.map(\.rawValue))
        .joined(separator: ": ")
      let text = said + (index == 0 ? "\n" + told : "")
      Issue.record(
        Comment(rawValue: text), sourceLocation: issue.sourceLocation ?? test.sourceLocation)
    }
    if let thrown = issues.thrown {
      Issue.record(
        Comment(rawValue: "The test threw \(thrown)."), sourceLocation: test.sourceLocation)
    }
  }
}
