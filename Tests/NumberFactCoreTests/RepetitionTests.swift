import Testing

/// Each timing-sensitive scenario, 10,000 times in a row. A scenario that depended on
/// scheduling luck would fail here; these synchronize on requests and taps only.
@MainActor @Suite(.timeLimit(.minutes(5))) struct RepetitionTests {
  static let repetitions = 10_000

  @Test(arguments: FeatureScenario.allCases)
  func tenThousandRuns(_ scenario: FeatureScenario) async throws {
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
