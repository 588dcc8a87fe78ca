import Foundation
import TaskProvidingTesting
import Testing

/// Runs only from `.ci/mutation-check`, which sets NUMBERFACT_TIME_LIMIT_PROBE=1 and
/// reads the runner's output: a test that waits for a call that never comes, with a bound far
/// past its time limit, must be ended by the limit, and the run must go on to the next test.
@Suite(
  .serialized,
  .enabled(if: ProcessInfo.processInfo.environment["NUMBERFACT_TIME_LIMIT_PROBE"] == "1"))
struct TimeLimitProbe {
  @Test(.timeLimit(.minutes(1)))
  func waitsPastItsTimeLimit() async throws {
    let never = ControlledFunction<Int, Int>("answer that never comes")
    _ = try await never.nextCall(timeout: .seconds(3_600))
  }

  @Test func runsAfterTheLimitEndedThePreviousTest() {
    #expect(ProcessInfo.processInfo.environment["NUMBERFACT_TIME_LIMIT_PROBE"] == "1")
  }
}
