import ConcurrencyBugCatalog
import LockSupport
import SuiteSupport
import TaskProviding
import Testing

@testable import TaskProvidingTesting

/// What the explorer does where a Linux-only facility is missing, as on Apple's platforms, and
/// as in a Linux build that sets `TP_NO_TASK_CREATION_HOOK`, `TP_NO_CHILD_PROCESS` and
/// `TP_NO_SYMBOLICATION` (CI runs this suite in both builds). Each test states what differs
/// and checks it, in the build it runs in.
@MainActor @Suite(.exploresInProcess) struct WithoutLinuxFacilitiesTests {
  /// A plain `Task { }` in the scenario's code: where its creation is seen it prefers the
  /// explorer's executor and the space is complete; elsewhere it runs without, and the report
  /// names it and says what to do, and the space is not called complete.
  @Test func aPlainTaskIsNamedWhereItsHopsMayEscapeTheExplorer() async {
    let report = await explore(.exhaustive()) { exploration in
      let counter = HopCounter()
      exploration.action("tap") {
        Task(name: "plain tap") { await counter.increment() }
      }
    }
    #expect(report.failure == nil)
    if LinuxFacilities.seeTaskCreation {
      #expect(report.isComplete)
      #expect(report.outsideWork == nil)
    } else {
      #expect(!report.isComplete)
      // Its name is given where the explorer saw it: a task's name can be read only while it
      // runs, and this one's only enqueue is its hop, made once it no longer counts as running.
      let said = report.outsideWork ?? ""
      #expect(said.hasPrefix("a task of the scenario ran without the explorer's executor"))
      #expect(said.contains("Spawn such tasks through `exploration.provider`"))
    }
  }

  /// The same tap spawned through the provider is explored alike in every build: the
  /// provider gives its task the explorer's executor through public API.
  @Test func aTaskSpawnedThroughTheProviderIsExploredAlikeEverywhere() async {
    let report = await TapLoader.exploreThreeTaps(.exhaustive(departures: 2))
    #expect(report.failure == nil)
    #expect(report.isComplete)
    #expect(report.outsideWork == nil)
    #expect(report.schedules == 211)
  }

  /// A sleep of a task spawned through the provider is on the exploration's virtual time in
  /// every build: an hour-long sleep ends at once.
  @Test(.timeLimit(.minutes(1))) func aProviderTasksSleepIsOnVirtualTime() async {
    let report = await explore(.exhaustive()) { exploration in
      let provider = exploration.provider
      var woke = false
      exploration.action("wait an hour") {
        provider.task(name: "sleeper") {
          try? await Task.sleep(for: .seconds(3_600))  // virtual time
          woke = true
        }
      }
      exploration.atEnd("the sleeper woke") { woke }
    }
    #expect(report.failure == nil)
    #expect(report.isComplete)
  }

  /// A plain task that yields in a loop until another sets a flag: where its pool jobs run
  /// with the explorer's executor standing in, its hops back to the pool run at once, but a
  /// yield is not such a hop, so the other task still runs and the loop ends, in every
  /// schedule.
  @Test(.timeLimit(.minutes(1))) func aPlainTaskYieldingInALoopLetsTheOtherRun() async {
    let report = await explore(.exhaustive(limit: 50)) { exploration in
      let flag = Flag()
      let spinner = Task.detached {
        var spins = 0
        while !flag.isSet {
          await Task.yield()  // virtual time
          spins += 1
        }
        return spins
      }
      let setter = Task.detached { flag.set() }
      await setter.value
      let spins = await spinner.value
      exploration.atEnd("the spinner stopped") { spins >= 0 }
    }
    #expect(report.failure == nil)
  }

  /// A failure's steps name the function and line a task resumes at where symbols can be
  /// read, and name the task alone elsewhere.
  @Test func stepsNamePlacesOnlyWhereSymbolsCanBeRead() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive()) { exploration in
        let provider = exploration.provider
        let counter = HopCounter()
        var seen = 0
        exploration.action("count") {
          provider.task(name: "counter") { seen = await counter.increment() }
        }
        exploration.atEnd("never holds") { seen == -1 }
      }
    }
    let steps = report?.failure?.steps ?? []
    #expect(steps.contains { $0.hasPrefix("task #0 'counter'") })
    #expect(steps.contains { $0.contains(".swift:") } == LinuxFacilities.namePlaces)
  }

  /// Where no child process starts, the report of a passing exploration is the same, and a
  /// trapping schedule would end the test run: the route says so.
  @Test func theChildRouteIsLinuxsAlone() {
    #if os(Linux) && !TP_NO_CHILD_PROCESS
      #expect(LinuxFacilities.startChildren)
    #else
      #expect(!LinuxFacilities.startChildren)
      #expect(ChildSpawn.unavailable.contains("ran in the test's own process"))
    #endif
  }
}

/// A trapping schedule where no child process starts: it ends the process that explores, as
/// it would end an app's test run on Apple's platforms (`TrappingScheduleTests` shows the
/// report that Linux gives instead). Run in a process of its own, an exit test.
@Suite struct TrappingWithoutAChildTests {
  @Test(
    .exitTestThread,
    .enabled(if: !LinuxFacilities.startChildren, "Linux reports the trap: TrappingScheduleTests"))
  func aTrappingScheduleEndsTheProcessThatExplores() async {
    await #expect(processExitsWith: .failure) {
      await explore(
        .exhaustive(), outsideWait: .milliseconds(20), CatalogEntry.transferEndsTwice.bug)
    }
  }
}

/// A flag one task sets and another reads, behind a lock.
private final class Flag: Sendable {
  private let value = Locked(false)
  var isSet: Bool { value.withLock { $0 } }
  func set() { value.withLock { $0 = true } }
}

/// An actor a task hops onto and back from.
private actor HopCounter {
  private var count = 0

  func increment() -> Int {
    count += 1
    return count
  }
}
