import Dispatch
import SuiteSupport
import TaskProvidingTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A schedule with nothing left to choose and something unfinished is stuck at once when
/// nothing outside the scope can bring a job, and waits when something can; a job that never
/// returns ends the run with a report instead of hanging it.
///
/// One at a time: the exit tests start a child process of the test binary, which under
/// ThreadSanitizer takes both cores for a while, and the dispatch-queue test's one-time wait
/// for a job from outside must not fall in that while.
@Suite(.serialized, .timeLimit(.minutes(ThreadSanitizer.minutes(5))))
struct StuckScheduleTests {
  /// A wake-up lost because the signal came before the waiter registered: found, shrunk and
  /// reported as stuck with nothing outside under way, so no schedule waited out
  /// `outsideWait`.
  @Test func aLostWakeUpIsStuckWithNothingOutside() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive()) { exploration in
        let bell = Bell()
        let waiter = Task.detached(name: "waiter") { await bell.wait() }
        let ringer = Task.detached(name: "ringer") { await bell.ring() }
        await ringer.value
        await waiter.value
      }
    } matching: {
      $0.description.contains("nothing can run")
    }
    let failure = report?.failure
    guard LinuxFacilities.seeTaskCreation else {
      // The plain tasks ran without the explorer's executor, where a sleep keeps real time
      // unseen: the schedule waited for one, and the report says so.
      #expect(failure?.reason.contains("a sleep of such a task keeps real time") == true)
      return
    }
    #expect(failure?.reason.contains("nothing outside the explorer's view was under way") == true)
    // The story ends where it stopped: who waits where. The ringer has ended and is not
    // named; the waiter waits inside the bell, and the scenario for the waiter.
    let last = failure?.steps.last ?? ""
    #expect(last.hasPrefix("then nothing can run: the scenario waits"), "\(last)")
    #expect(last.contains("task 'waiter' waits"), "\(last)")
    if LinuxFacilities.namePlaces {
      #expect(last.contains("task 'waiter' waits in Bell.wait() at StuckScheduleTests.swift:"))
    }
    #expect(!last.contains("'ringer'"), "\(last)")
    #expect(failure?.everyStep.last == last)
  }

  /// A continuation resumed from a dispatch queue comes back: the first schedule that finds
  /// nothing to run waits for it, every later one knows to, and the report says that work
  /// came from outside and does not call the space complete.
  ///
  /// The queue answers only once a second task of the scenario has run, which the explorer
  /// starts only after the asking task has suspended: the answer is always a job from
  /// outside. (Answered before its task suspends, a continuation brings no job, and the
  /// explorer cannot see that it came from outside; a loaded machine does that often.)
  @Test func aContinuationResumedFromADispatchQueueIsWaitedFor() async {
    let report = await explore(.exhaustive()) { exploration in
      let answers = Task.detached(name: "ask") {
        var answers = 0
        for _ in 0..<3 {
          answers += await withCheckedContinuation {
            (continuation: CheckedContinuation<Int, Never>) in
            let asked = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
              asked.wait()
              continuation.resume(returning: 1)
            }
            Task.detached(name: "let it answer") { asked.signal() }
          }
        }
        return answers
      }
      let answer = await answers.value
      exploration.atEnd("every answer came back") { answer == 3 }
    }
    #expect(report.failure == nil)
    #expect(report.schedules >= 1)
    #expect(report.outsideWork != nil)
    #expect(!report.isComplete)
  }

  /// A job that blocks forever (here on a lock its own scenario never gives back) ends the
  /// test run within the bound, saying which exploration, which schedule and which task.
  @Test(.exitTestThread) func aJobThatNeverReturnsEndsTheRunWithAReport() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = await StuckScheduleTests.exploreAJobThatNeverReturns()
    }.map { result in
      let text = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(text.contains("did not return within"))
      #expect(text.contains("replays as"))
      #expect(text.contains("explore(exhaustive"))
      #expect(text.contains("StuckScheduleTests.swift:"))
    }
  }

  /// Run as a test runs it, the exploration is in a child process: a job that blocks forever
  /// ends the child, not the test run, and the test process reports it at the call's line
  /// through the test's issue reporting, with the schedule's replay string.
  @Test(
    .enabled(
      if: LinuxFacilities.startChildren,
      "a job that never returns is reported only where explorations run in a child process"))
  func aJobThatNeverReturnsInAChildIsReportedAndTheRunGoesOn() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await Self.exploreAJobThatNeverReturns()
    } matching: {
      $0.description.contains("did not return within")
    }
    let failure = report?.failure
    #expect(failure?.reason.contains("explore(exhaustive") == true)
    #expect(failure?.reason.contains("the child process exploring for the test was ended") == true)
    #expect(failure?.replay.hasPrefix("x2:") == true)
  }

  /// Explores a scenario whose one job blocks its thread for ever, on a lock the scenario
  /// never gives back, with half a second as the bound on one job.
  @MainActor
  static func exploreAJobThatNeverReturns() async -> ExplorationReport {
    await exploring(
      .exhaustive(), jobTimeout: .milliseconds(500),
      at: CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    ) { _ in
      let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
      pthread_mutex_init(lock, nil)
      _ = pthread_mutex_lock(lock)
      await Task.detached {
        _ = pthread_mutex_lock(lock)  // never given back: this job blocks its thread
      }.value
    }
  }

  /// The same under the serial scheduler, whose timeout is seen only between jobs: a job that
  /// blocks forever ends the run past the timeout, naming the call and the job's task.
  @Test(.exitTestThread) func aSerialSchedulerJobThatNeverReturnsEndsTheRunWithAReport() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        _ = try? withSerialScheduler(timeout: .milliseconds(300)) {
          let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
          pthread_mutex_init(lock, nil)
          _ = pthread_mutex_lock(lock)
          await Task.detached(name: "blocked") {
            _ = pthread_mutex_lock(lock)  // never given back: this job blocks its thread
          }.value
        }
      }
    }.map { result in
      let text = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(text.contains("A job of withSerialScheduler at"))
      #expect(text.contains("StuckScheduleTests.swift:"))
      #expect(text.contains("did not return within"))
    }
  }
}

/// A bell that rings once. Flawed: a ring before anyone waits is lost, and the waiter then
/// waits for ever.
private actor Bell {
  private var waiter: CheckedContinuation<Void, Never>?

  func wait() async {
    await withCheckedContinuation { waiter = $0 }
  }

  func ring() {
    waiter?.resume()
    waiter = nil
  }
}
