import Synchronization
import TaskProvidingTesting
import Testing

/// What the tests call the deprecated spellings through: a requirement that is not deprecated,
/// so its call does not warn, met by a witness that is.
private protocol FormerSpellings {
  static func exhaustive(limit: Int, deviations: Int) -> ExplorationStrategy
  static func deviations(of failure: ExplorationFailure) -> Int
}

private enum Former: FormerSpellings {
  @available(*, deprecated, message: "calls the deprecated spellings")
  static func exhaustive(limit: Int, deviations: Int) -> ExplorationStrategy {
    .exhaustive(limit: limit, deviations: deviations)
  }

  @available(*, deprecated, message: "calls the deprecated spellings")
  static func deviations(of failure: ExplorationFailure) -> Int { failure.deviations }
}

/// The spellings from before "departures" was the one word still work as the new ones do, so
/// an adopter's code that names them keeps its meaning until it is renamed.
@MainActor @Suite(.exploresInProcess) struct DeprecatedSpellingTests {
  /// A count two tasks each read, then write one more, with a yield between.
  final class Count: Sendable {
    let value = Mutex(0)
  }

  /// Reached through the protocol, as a type value of it.
  private let spellings: any FormerSpellings.Type = Former.self

  @Test func deviationsSpellsTheSameStrategyAndFailureAsDepartures() async throws {
    let strategy = spellings.exhaustive(limit: 100, deviations: 1)
    #expect(strategy == .exhaustive(limit: 100, departures: 1))
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(strategy) { exploration in
        let count = Count()
        let tasks = (0..<2).map { _ in
          Task.detached {
            let read = count.value.withLock { $0 }
            await Task.yield()
            count.value.withLock { $0 = read + 1 }
          }
        }
        for task in tasks { await task.value }
        let final = count.value.withLock { $0 }
        exploration.atEnd("both increments count") { final == 2 }
      }
    }
    let failure = try #require(report?.failure)
    #expect(spellings.deviations(of: failure) == failure.departures)
    #expect(failure.strategy == .exhaustive(limit: 100, departures: 1))
    #expect(failure.departures <= 1)
  }
}
