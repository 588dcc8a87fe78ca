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
/// suite; they give the main actor back between chunks of runs, taking their turns in line
/// with the suite's other long main-actor work (`MainActorTurns`), so the suite's other
/// main-actor tests never wait long.
@Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(5)))) struct RepetitionTests {
  /// Under ThreadSanitizer, which runs everything several times slower and looks for races
  /// rather than orders, a tenth as many.
  static let repetitions = ThreadSanitizer.isActive ? 1_000 : 10_000
  /// Runs per turn on the main actor: a few milliseconds, so a turn never keeps the suite's
  /// other main-actor tests waiting long.
  static let chunk = 20

  @Test(arguments: FeatureScenario.allCases)
  func tenThousandInterleavings(_ scenario: FeatureScenario) async throws {
    for start in stride(from: 1, through: Self.repetitions, by: Self.chunk) {
      let failure = await MainActorTurns.take { () -> String? in
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
      if let failure {
        Issue.record(Comment(rawValue: failure))
        return
      }
    }
  }
}
