import Clocks
import TaskProvidingTesting

extension PeerFailure {
  /// `TestClock`'s own example (TestClock.swift:47–63): a timer task sleeps a second, the
  /// test advances the clock a second and reads the count at once. Nothing promises that
  /// the resumed sleeper has run when `advance(by:)` returns: it yields (`Task.megaYield`,
  /// twenty background tasks) and hopes. A known upstream limit (swift-clocks #27, #33).
  package static let testClockAdvance = PeerFailure(
    name: "TestClock.advance(by:) returns before the sleeper it wakes has run",
    package: "swift-clocks 1.1.1", isCostly: true
  ) { exploration in
    let clock = TestClock()
    let ticks = Ended()
    let timer = Task {
      try await clock.sleep(for: .seconds(1))  // virtual time
      ticks.mark("tick")
    }
    await clock.advance(by: .seconds(1))
    let ticked = ticks.contains("tick")
    timer.cancel()
    _ = await timer.result
    exploration.atEnd("the timer ticked when advance returned") { ticked }
  }
}
