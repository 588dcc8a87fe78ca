import SuiteSupport
import Testing

@testable import FeatureScenarios

/// Each timing-sensitive scenario 50 times on the runtime's own executors: the scenarios
/// hold without the serial scheduler too, under whatever timing the machine gives them.
///
/// Each run answers its calls on the main actor within their failure bound (5 s), beside the
/// suite's explorations and schedulers, which give the main actor back between schedules.
@MainActor @Suite(.timeLimit(.minutes(5)))
struct DefaultExecutorRepetitionTests {
  static let repetitions = 50

  @Test(arguments: FeatureScenario.allCases)
  func fiftyRuns(_ scenario: FeatureScenario) async throws {
    for run in 1...Self.repetitions {
      do {
        try await scenario.run()
      } catch {
        Issue.record("\(scenario) failed on run \(run) of \(Self.repetitions): \(error)")
        return
      }
    }
  }
}
