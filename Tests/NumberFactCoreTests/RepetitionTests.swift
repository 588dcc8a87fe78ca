import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

extension ProcessWideHookTests {
  /// Each timing-sensitive scenario 10,000 times, each time in another interleaving: the
  /// scheduler places every job for the global pool (the tap's child task, the client's
  /// nonisolated code) at a random point among the main actor's jobs, from the run's seed.
  /// A scenario that depended on one order would fail here, with the seed that replays it.
  @Suite(.timeLimit(.minutes(5))) struct RepetitionTests {
    static let repetitions = 10_000
    /// Runs per turn on the main actor. The scheduler holds the main actor while it runs;
    /// giving it back between chunks lets the rest of the suite's main-actor work through.
    static let chunk = 100

    @Test(arguments: FeatureScenario.allCases)
    func tenThousandInterleavings(_ scenario: FeatureScenario) async throws {
      for start in stride(from: 1, through: Self.repetitions, by: Self.chunk) {
        // An outer scheduler keeps the hooks on for the whole chunk, so the suite's other
        // main-actor work runs in its queue between runs instead of waiting for the chunk.
        let failure = try await MainActor.run {
          try withSerialScheduler { () -> String? in
            for run in start..<min(start + Self.chunk, Self.repetitions + 1) {
              let order = JobOrder.random(seed: UInt64(run))
              do {
                try withSerialScheduler(order: order) { try await scenario.run() }
              } catch {
                return """
                  \(scenario) failed on run \(run) of \(Self.repetitions) (replay with \
                  withSerialScheduler(order: .\(order))): \(error)
                  """
              }
            }
            return nil
          }
        }
        if let failure {
          Issue.record(Comment(rawValue: failure))
          return
        }
      }
    }
  }
}
