import LockSupport
import SuiteSupport
import Testing

@testable import TaskProvidingTesting

/// A schedule that never settles, because a task polls in a loop, is narrated as a person can
/// read it: one turn of the loop, how often it came again, and at the end which task was
/// ready to run again and where each other task waits.
@Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(2))))
struct LoopingScheduleTests {
  @Test func aLoopIsToldOnceAndItsStoryEndsWithTheTaskThatLoops() async throws {
    var report: ExplorationReport?
    // A schedule's tasks outlive it: the pollers stop once the test is done with them.
    let stop = Locked(false)
    // The limits lowered, so that the loop is reported after thousands of jobs, not a million,
    // and narrated up to hundreds of steps.
    await ScheduleLimits.$maximumJobs.withValue(3_000) {
      await ScheduleNarrator.$mostNarratedSteps.withValue(500) {
        await withKnownIssue {
          report = await explore(.exhaustive()) { exploration in
            let flag = Flag()
            let poller = exploration.provider.detachedTask(name: "poller") {
              while !stop.withLock({ $0 }), await !flag.isSet {
                await Task.yield()  // virtual time
              }
            }
            let sleeper = exploration.provider.detachedTask(name: "sleeper") {
              await flag.waitForAnswer()
            }
            await poller.value
            await sleeper.value
          }
        } matching: {
          $0.description.contains("without settling")
        }
      }
    }
    stop.withLock { $0 = true }
    let failure = try #require(report?.failure)
    #expect(failure.reason.contains("task #0 'poller' was still running"), "\(failure.reason)")
    #expect(failure.steps.count < 30, "\(failure.steps.joined(separator: "\n"))")
    #expect(failure.steps.contains { $0.contains("steps above repeat") })
    #expect(failure.steps.contains { $0.hasSuffix("more steps, not told") })
    let last = failure.steps.last ?? ""
    #expect(last.hasPrefix("then the schedule stops, as it would not settle: "), "\(last)")
    #expect(last.contains("task #0 'poller' is ready to run again"), "\(last)")
    #expect(last.contains("task #1 'sleeper' waits"), "\(last)")
    // Every step is kept only up to a bound, then the same end.
    // Each kept step is a job or a choice; a line may name more than one.
    #expect(failure.everyStep.count <= 500 + 2)
    #expect(failure.everyStep.last == last)
  }

  /// A schedule that loops gives the main actor back while it runs, as an exploration does
  /// between schedules: a test beside it that waits for the main actor gets it long before
  /// the loop ends.
  @Test @MainActor func aLoopGivesTheMainActorBackWhileItRuns() async throws {
    let turns = Locked(0)
    let stop = Locked(false)
    let (starts, started) = AsyncStream.makeStream(of: Void.self)
    let exploring = Task { @MainActor in
      await ScheduleLimits.$maximumJobs.withValue(30_000) {
        await withKnownIssue {
          _ = await explore(.exhaustive()) { exploration in
            let poller = exploration.provider.detachedTask(name: "poller") {
              started.yield()
              while !stop.withLock({ $0 }) {
                turns.withLock { $0 += 1 }
                await Task.yield()  // virtual time
              }
            }
            await poller.value
          }
        } matching: {
          $0.description.contains("without settling")
        }
      }
    }
    // This test's own main-actor job, queued as the loop begins.
    for await _ in starts { break }
    let seen = turns.withLock { $0 }
    await exploring.value
    stop.withLock { $0 = true }
    // Had the loop held the main actor to the end of its first schedule, this job would have
    // seen a turn for nearly every one of its 30,000 jobs.
    #expect(seen < 15_000, "saw \(seen) turns")
  }
}

/// A flag no one sets, and an answer no one gives.
private actor Flag {
  var isSet = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func waitForAnswer() async {
    await withCheckedContinuation { waiters.append($0) }
  }
}
