import ConcurrencyBugCatalog
import LockSupport
import SuiteSupport
import TaskProvidingTesting
import Testing

/// A schedule that traps (a continuation resumed twice, a failed `precondition`) is reported
/// like any failing schedule, with the runtime's message, a replay string, the shrunk
/// schedule and its steps up to the trap, and the test run goes on: the exploration runs in a
/// child process of the test binary, which the trap ends instead of this one.
///
/// Each test reaching its last line is itself the proof that the run went on. Where no child
/// process starts, a trapping schedule ends the test run instead, which
/// `WithoutLinuxFacilitiesTests` checks in a process of its own.
@Suite(
  .timeLimit(.minutes(ThreadSanitizer.minutes(5))),
  .enabled(
    if: LinuxFacilities.startChildren,
    "a trapping schedule is reported only where explorations run in a child process"))
struct TrappingScheduleTests {
  /// What each trapping entry's report must quote of its trap.
  static let trapMessage: [String: String] = [
    "a continuation resumed by its response and its timeout (MCP Swift SDK)":
      "SWIFT TASK CONTINUATION MISUSE",
    "a state machine's precondition reached by one interleaving": "a transfer ends once",
  ]

  @Test func everyTrappingEntryStatesItsMessage() {
    #expect(Set(Self.trapMessage.keys) == Set(CatalogEntry.trapping.map(\.name)))
  }

  @Test func exhaustiveSearchReportsEachTrapShrunkNarratedAndReplayable() async throws {
    for entry in CatalogEntry.trapping {
      let found = try #require(await CatalogTests.findBug(entry, with: .exhaustive()), "\(entry)")
      #expect(found.reason.hasPrefix("the schedule trapped: "), "\(entry): \(found.reason)")
      #expect(found.reason.contains(Self.trapMessage[entry.name] ?? "?"), "\(entry)")
      #expect(found.replay.hasPrefix("x2:"), "\(entry)")
      #expect(found.departures == found.replay.count { $0 == "." }, "\(entry)")
      // Narrated up to the trap: the last step is the job that trapped, or the choice before it.
      #expect(!found.steps.isEmpty, "\(entry)")
      var replayed: ExplorationReport?
      await withKnownIssue {
        replayed = await explore(
          .exhaustive(), replay: found.replay, outsideWait: CatalogTests.outsideWait, entry.bug)
      }
      #expect(replayed?.failure?.reason == found.reason, "\(entry)")
      #expect(replayed?.failure?.replay == found.replay, "\(entry)")
    }
  }

  /// The response and the timeout both resume the request only when the timeout fires while
  /// the response is being logged: one departure from the default order, narrated as such.
  @Test func theContinuationResumedTwiceNeedsOneDeparture() async throws {
    let found = try #require(
      await CatalogTests.findBug(.continuationResumedTwice, with: .exhaustive()))
    #expect(found.departures == 1)
    #expect(found.steps.contains { $0.contains("time reaches") })
  }

  /// Where nothing traps, the test process explores too, after the child: what the schedules
  /// record in the test's own variables is there when `explore` returns.
  @Test func whatTheSchedulesLeaveBehindIsTheTestsToRead() async {
    let seen = Locked(Set<[String]>())
    let report = await explore(.exhaustive()) { exploration in
      let provider = exploration.provider
      let events = Locked<[String]>([])
      // On the pool, so they start in either order.
      exploration.action("start") {
        provider.detachedTask(name: "first") { events.withLock { $0.append("first") } }
        provider.detachedTask(name: "second") { events.withLock { $0.append("second") } }
      }
      exploration.atEnd("both ran") {
        let order = events.withLock { $0 }
        seen.withLock { _ = $0.insert(order) }
        return order.count == 2
      }
    }
    #expect(report.failure == nil)
    #expect(seen.withLock { $0 } == [["first", "second"], ["second", "first"]])
  }

  @Test func pctFindsEachTrapWithinAHundredSchedules() async {
    for entry in CatalogEntry.trapping {
      for seed: UInt64 in 1...3 {
        let found = await CatalogTests.findBug(entry, with: .pct(seed: seed, schedules: 100))
        #expect(found?.reason.hasPrefix("the schedule trapped: ") == true, "\(entry), \(seed)")
      }
    }
  }

  @Test func eachFixedTwinPassesEverySchedule() async {
    for entry in CatalogEntry.trapping {
      let report = await explore(.exhaustive(), outsideWait: CatalogTests.outsideWait, entry.fixed)
      #expect(report.failure == nil, "\(entry)")
      #expect(report.coversEverySchedule, "\(entry)")
    }
  }
}
