import LockSupport
import SuiteSupport
import TaskProvidingTesting
import Testing

/// `.exhaustive()` raises its bound on departures round by round, and runs each schedule of
/// every round once: a round starts where the schedules of the rounds before it left off,
/// instead of running them all again on its way to the new ones.
@Suite(.exploresInProcess, .timeLimit(.minutes(ThreadSanitizer.minutes(2))))
struct ExhaustiveRoundsTests {
  /// Two plain tasks, each with one suspension point, started by one action: jobs of
  /// different tasks never commute for the explorer, so no schedule is cut short by the sleep
  /// sets, and every run is a schedule of its own.
  private static func twoTasks(
    _ runs: Locked<Int>
  ) -> @MainActor @Sendable (Exploration) async throws -> Void {
    { exploration in
      runs.withLock { $0 += 1 }
      exploration.action("start two tasks") {
        for _ in 0..<2 {
          Task {
            await Task.yield()
          }
        }
      }
    }
  }

  @Test func everyScheduleOfEveryRoundRunsOnce() async {
    let runs = Locked(0)
    let report = await MainActorTurns.take {
      explore(.exhaustive(), Self.twoTasks(runs))
    }
    #expect(report.failure == nil)
    #expect(report.isComplete)
    #expect(!report.boundLeftSchedulesOut)
    // 90 schedules in seven rounds (bounds 0 to 6): a search that started each round afresh
    // ran the earlier rounds' schedules again, 354 runs in all.
    #expect(report.bound == 6)
    #expect(report.schedules == 90)
    #expect(runs.withLock { $0 } == report.schedules)
  }

  @Test func aCapStopsTheRoundsAndSaysSo() async {
    let runs = Locked(0)
    let all = await MainActorTurns.take {
      explore(.exhaustive(), Self.twoTasks(Locked(0)))
    }
    let capped = await MainActorTurns.take {
      explore(.exhaustive(deviations: 1), Self.twoTasks(runs))
    }
    #expect(capped.failure == nil)
    #expect(capped.bound == 1)
    #expect(capped.boundLeftSchedulesOut)
    #expect(capped.schedules < all.schedules)
    #expect(runs.withLock { $0 } == capped.schedules)
  }

  @Test func theSameSpaceIsCountedWithOrWithoutALimitInTheWay() async {
    let whole = await MainActorTurns.take {
      explore(.exhaustive(), Self.twoTasks(Locked(0)))
    }
    let limited = await MainActorTurns.take {
      explore(.exhaustive(limit: whole.schedules - 1), Self.twoTasks(Locked(0)))
    }
    #expect(limited.schedules == whole.schedules - 1)
    #expect(!limited.isComplete)
  }
}
