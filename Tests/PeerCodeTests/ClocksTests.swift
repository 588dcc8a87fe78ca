import Clocks
import PeerScenarios
import TaskProvidingTesting
import Testing

/// pointfreeco/swift-clocks 1.1.1: `TestClock` and `ImmediateClock` (Sources/Clocks).
extension PeerCodeTests {
  /// `TestClock`'s own example (TestClock.swift:47–63): a timer task sleeps a second, the
  /// test advances the clock a second and reads the count at once. Nothing promises that
  /// the resumed sleeper has run when `advance(by:)` returns: it yields (`Task.megaYield`,
  /// twenty background tasks) and hopes. A known upstream limit (swift-clocks #27, #33).
  ///
  /// The sleeper must be held back behind every one of those yields, a departure each: the
  /// exhaustive search, which grows departures a round at a time, does not reach it within
  /// its limit; PCT, which holds a task back by its priority, does.
  @Test func testClockAdvanceDoesNotWaitForTheSleeperItWakes() async {
    let failures = await Self.exploreExpectingFinding(
      pctOnly: true, PeerFailure.testClockAdvance.scenario)
    // Narrated in a few steps: the sleeper held back behind the yields is one line.
    #expect(failures.allSatisfy { $0.steps.count <= 12 && $0.nondeterminism == nil })
  }

  /// `ImmediateClock`: "forcing any `sleep`s to execute immediately" (ImmediateClock.swift:
  /// 7): two tasks that sleep on it both end, whatever the order.
  @Test func immediateClockSleepsEndAtOnce() async {
    _ = await Self.exploreEveryWay(costly: true) { exploration in
      let clock = ImmediateClock()
      let sleepers = [1, 2].map { seconds in
        Task { try await clock.sleep(for: .seconds(seconds)) }  // virtual time
      }
      var ended = 0
      for sleeper in sleepers where (try? await sleeper.value) != nil { ended += 1 }
      let all = ended
      exploration.atEnd("both sleeps ended") { all == 2 }
    }
  }
}
