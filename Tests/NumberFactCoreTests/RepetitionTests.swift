import SuiteSupport
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// Each timing-sensitive scenario 10,000 times, each time in another interleaving: the
/// scheduler places every job for the global pool (the tap's child task, the client's
/// nonisolated code) at a random point among the main actor's jobs, from the run's seed.
/// A scenario that depended on one order would fail here, with the seed that replays it.
///
/// The scheduler owns each run's jobs and nothing else, so these run beside the rest of the
/// suite; the `async` form gives the main actor back after each run. The scenarios take
/// their turns one after another: each run is a main-actor job, and ten loops at once would
/// put ten runs ahead of every other test's main-actor hop.
@Suite(.serialized, .timeLimit(.minutes(ThreadSanitizer.minutes(5)))) struct RepetitionTests {
  /// Under ThreadSanitizer, which runs everything several times slower and looks for races
  /// rather than orders, a tenth as many.
  static let repetitions = ThreadSanitizer.isActive ? 1_000 : 10_000

  @Test(arguments: FeatureScenario.allCases)
  func tenThousandInterleavings(_ scenario: FeatureScenario) async throws {
    for run in 1...Self.repetitions {
      let order = JobOrder.random(seed: UInt64(run))
      do {
        try await withSerialScheduler(order: order) { try await scenario.run() }
      } catch {
        Issue.record(
          """
          \(scenario) failed on run \(run) of \(Self.repetitions) (replay with \
          withSerialScheduler(order: .\(order))): \(error)
          """)
        return
      }
    }
  }
}
