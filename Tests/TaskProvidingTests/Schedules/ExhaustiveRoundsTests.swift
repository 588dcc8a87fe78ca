import LockSupport
import SuiteSupport
import TaskProvidingTesting
import Testing

/// `.exhaustive()` raises its bound on departures round by round, and runs each schedule of
/// every round once: a round starts where the schedules of the rounds before it left off,
/// instead of running them all again on its way to the new ones.
@Suite(.exploresInProcess, .timeLimit(.minutes(ThreadSanitizer.minutes(5))))
struct ExhaustiveRoundsTests {
  /// An actor the tasks visit: each visit is a hop there and back.
  private actor Ledger {
    private var visits = 0
    func visit() { visits += 1 }
  }

  /// Two plain tasks, each visiting two actors in turn, started by one action: jobs of
  /// different tasks never commute for the explorer, so no schedule is cut short by the sleep
  /// sets, and every run is a schedule of its own.
  private static func twoTasks(
    _ runs: Locked<Int>
  ) -> @MainActor @Sendable (Exploration) async throws -> Void {
    { exploration in
      runs.withLock { $0 += 1 }
      let ledgers = [Ledger(), Ledger()]
      exploration.action("start two tasks") {
        for _ in 0..<2 {
          Task {
            for ledger in ledgers { await ledger.visit() }
          }
        }
      }
    }
  }

  @Test func everyScheduleOfEveryRoundRunsOnce() async {
    let runs = Locked(0)
    let report = await explore(.exhaustive(), Self.twoTasks(runs))
    #expect(report.failure == nil)
    // Its two plain tasks: where their creation is not seen, the report says so.
    #expect(report.isComplete == LinuxFacilities.seeTaskCreation)
    #expect(!report.boundLeftSchedulesOut)
    // 11 schedules in five rounds (bounds 0 to 4): a search that started each round afresh
    // ran the earlier rounds' schedules again on its way to each new one.
    #expect(report.bound == 4)
    #expect(report.schedules == 11)
    #expect(runs.withLock { $0 } == report.schedules)
  }

  @Test func aCapStopsTheRoundsAndSaysSo() async {
    let runs = Locked(0)
    let all = await explore(.exhaustive(), Self.twoTasks(Locked(0)))
    let capped = await explore(.exhaustive(departures: 1), Self.twoTasks(runs))
    #expect(capped.failure == nil)
    #expect(capped.bound == 1)
    #expect(capped.boundLeftSchedulesOut)
    #expect(capped.schedules < all.schedules)
    #expect(runs.withLock { $0 } == capped.schedules)
  }

  @Test func theSameSpaceIsCountedWithOrWithoutALimitInTheWay() async {
    let whole = await explore(.exhaustive(), Self.twoTasks(Locked(0)))
    let limited = await explore(.exhaustive(limit: whole.schedules - 1), Self.twoTasks(Locked(0)))
    #expect(limited.schedules == whole.schedules - 1)
    #expect(!limited.isComplete)
  }
}
