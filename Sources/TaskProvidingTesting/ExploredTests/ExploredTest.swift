import LockSupport

/// One test run under the explorer as written, by Swift Testing's `exploring` trait or by
/// XCTest's ``ExploringTestCase``: the body is the scenario, and the issues it records are
/// the checks. `Host` is the framework's side.
struct ExploredTest<Host: ExploredTestHost>: Sendable {
  let host: Host
  let strategy: ExplorationStrategy
  let replay: String?

  /// How long a call of the body left under way by a schedule may take to return.
  static var leftCallBound: Duration { .seconds(30) }

  /// Explores the body, reports what failed, and returns once no call of the body is under
  /// way.
  func run() async {
    let calls = BodyCallsInFlight()
    let schedules = Locked(0)
    let lastFailure = Locked<ScheduleIssuesFailure<Host.Recorded>?>(nil)
    let host = host
    // A test may time a sleep with a real clock, or poll for work that takes real time:
    // sleeps keep real time as well (``SleepFloor``), as in a plain run.
    let report = await ExplorationRoute.$inProcess.withValue(true) {
      await SleepFloor.$isReal.withValue(true) {
        await exploringAsWritten(strategy, replay: replay, at: host.site) { _ in
          let first = schedules.withLock { count -> Bool in
            count += 1
            return count == 1
          }
          let issues = ScheduleIssues<Host.Recorded>(passesOthers: first)
          calls.begin()
          await host.call(recordingInto: issues)
          calls.end()
          if let failure = issues.failure {
            lastFailure.withLock { $0 = failure }
            throw failure
          }
        }
      }
    }
    if let failure = report.failure {
      // The narration's run of the shrunk schedule is the last that failed.
      let issues = lastFailure.withLock { $0 }
      let plain = failure.scenarioThrew ? await plainly() : nil
      let story = ExploredTestStory(
        failure: failure, plain: plain, replayCall: Host.replayCall, site: host.site)
      FailureAttachments.record(failure, at: host.site)
      host.report(issues, reason: story.reason, story: story.text)
    } else if let nondeterminism = report.nondeterminism {
      host.warn("The exploration met uncontrolled nondeterminism: \(nondeterminism)")
    }
    guard await calls.waitUntilNoneRun(within: TimeoutScale.scaled(Self.leftCallBound))
    else {
      // The body may have been lent for the test's duration only (Swift Testing's is): ending
      // the test with a call of it under way would leave that call running code that is gone.
      fatalError(
        "\(host.site.description): a schedule of the explored test '\(host.name)' left its"
          + " body waiting for something that never came, and it has not returned within"
          + " \(TimeoutScale.describe(Self.leftCallBound)). The test cannot end while its"
          + " body runs; its failure is reported above.")
    }
  }

  /// How often the body, run plainly on the real runtime, fails: the runs and the failures.
  private func plainly() async -> ExploredTestStory.PlainRuns {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: ExploredTestStory.PlainRuns.time)
    var plain = ExploredTestStory.PlainRuns()
    while plain.runs < ExploredTestStory.PlainRuns.most, clock.now < deadline {
      let issues = ScheduleIssues<Host.Recorded>(passesOthers: false)
      await host.call(recordingInto: issues)
      plain.runs += 1
      if issues.failure != nil { plain.failures += 1 }
    }
    return plain
  }
}
