import TaskProvidingTesting
import Testing

/// The exploration's clock moved by hand, as the app's scripted tests move it: a sleep ends on
/// the advance that reaches its deadline, or at once if its deadline has passed, whichever the
/// sleeping task meets first, so no test depends on which of the two runs first.
@Suite struct ExplorationClockByHandTests {
  @Test func aSleepWhoseDeadlineHasPassedReturnsAtOnce() async throws {
    let clock = ExplorationClock()
    clock.advance(by: .seconds(3))
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))  // virtual time
    try await clock.sleep(until: clock.now)  // virtual time
    #expect(clock.now.offset == .seconds(3))
    #expect(clock.sleepers == 0)
  }

  @Test func anAdvanceToTheDeadlineEndsTheSleepWhicheverComesFirst() async throws {
    let clock = ExplorationClock()
    let deadline = clock.now.advanced(by: .seconds(1))
    let sleeping = Task {
      try await clock.sleep(until: deadline)  // virtual time
      return clock.now
    }
    clock.advance(by: .milliseconds(400))
    clock.advance(by: .milliseconds(600))
    #expect(try await sleeping.value == deadline)
    #expect(clock.sleepers == 0)
  }

  @Test func aNegativeAdvanceDoesNotMoveTheClock() {
    let clock = ExplorationClock()
    clock.advance(by: .seconds(-5))
    #expect(clock.now.offset == .zero)
  }

  @Test func aCancelledSleepThrowsAndLeavesNoSleeper() async {
    let clock = ExplorationClock()
    let sleeping = Task {
      try await clock.sleep(until: clock.now.advanced(by: .seconds(60)))  // virtual time
    }
    sleeping.cancel()
    await #expect(throws: CancellationError.self) { try await sleeping.value }
    #expect(clock.sleepers == 0)
  }
}
