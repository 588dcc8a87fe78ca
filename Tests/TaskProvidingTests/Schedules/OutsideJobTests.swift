import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

/// What a schedule does when nothing is left to choose: it takes a job that comes from
/// outside the scope, or reports what is still pending.
@MainActor @Suite(.exploresInProcess) struct OutsideJobTests {
  /// A job from outside (here the shared timer ending an unanswered call; in an app, a
  /// sleep ending) arrives while there is nothing to choose: the schedule goes on with it.
  @Test func aScheduleWaitsForAJobFromOutside() async {
    let report = await explore(.random(seed: 3, schedules: 3)) { exploration in
      let provider = exploration.provider
      let silent = ControlledFunction<Int, Int>(
        "call nobody answers", answerTimeout: .milliseconds(10))
      var outcome = "none"
      exploration.action("ask") {
        provider.task { @MainActor in
          do { outcome = "\(try await silent.function(1))" } catch { outcome = "unanswered" }
        }
      }
      exploration.atEnd("the call ended unanswered") { outcome == "unanswered" }
    }
    #expect(report.failure == nil)
    #expect(report.schedules == 3)
  }

  @Test func aScenarioStuckOnSomethingNoChoiceGivesIsReported() async {
    let never = ControlledFunction<Int, Int>("lookup without answers")
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive(), outsideWait: .milliseconds(20)) { exploration in
        let provider = exploration.provider
        exploration.action("look up") {
          provider.task(name: "lookup") { _ = try? await never.function(1) }
        }
      }
    } matching: {
      $0.description.contains("yet tasks are still pending")
    }
    #expect(report?.failure?.reason.contains("'lookup'") == false)
    #expect(report?.failure?.reason.contains("\"lookup\"") == true)
  }
}
