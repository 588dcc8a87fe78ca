import Synchronization
import TaskProvidingTesting
import Testing

/// A failure found by a strategy that departs from the default order at nearly every step
/// (PCT, random) is shrunk to the departures that matter, and narrated in a few steps:
/// shrinking drops runs of departures at a time, not one a schedule.
@MainActor @Suite(.exploresInProcess) struct ShrinkingTests {
  /// A count two tasks each read, then write one more, yielding in a loop between the two.
  final class Count: Sendable {
    let value = Mutex(0)
  }

  /// Yields `yields` times, then reads `count`, yields once more if `between`, and writes
  /// what it read plus one.
  nonisolated static func increment(
    _ count: Count, after yields: Int, yieldingBetween between: Bool
  ) async {
    for _ in 0..<yields { await Task.yield() }  // virtual time
    let read = count.value.withLock { $0 }
    if between { await Task.yield() }  // virtual time
    count.value.withLock { $0 = read + 1 }
  }

  @Test(arguments: [
    ExplorationStrategy.pct(seed: 1, schedules: 200, depth: 3), .random(seed: 1, schedules: 200),
  ])
  func aLostUpdateBetweenYieldingLoopsIsShrunkToItsRace(_ strategy: ExplorationStrategy) async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(strategy) { exploration in
        let count = Count()
        // In the default order the second reads after the first wrote; one departure, the
        // second's last step ahead of the first's write, loses an update.
        let first = Task.detached {
          await Self.increment(count, after: 20, yieldingBetween: true)
        }
        let second = Task.detached {
          await Self.increment(count, after: 21, yieldingBetween: false)
        }
        await first.value
        await second.value
        let final = count.value.withLock { $0 }
        exploration.atEnd("both increments count") { final == 2 }
      }
    }
    let failure = try? #require(report?.failure)
    #expect((failure?.departures ?? .max) <= 2)
    #expect((failure?.steps.count ?? .max) <= 12)
  }
}
