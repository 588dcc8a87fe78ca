import SuiteSupport
import Synchronization
import TaskProvidingTesting
import Testing

/// The reduction that assumes no state is shared but through what the scope sees: it covers
/// far fewer schedules where tasks on different executors do not meet, says what it
/// assumed, keeps apart jobs that meet on an actor or wake each other, and, as it warns,
/// misses an order that matters only through a `Mutex`.
@MainActor @Suite(.exploresInProcess) struct AssumedIndependenceTests {
  static let assumed = ExplorationStrategy.exhaustive(reduction: .assumingNoHiddenSharing)

  /// Waits for a helper task of its own: a job that starts the helper, and one that goes on
  /// once the helper has ended.
  nonisolated static func helped() async {
    await Task.detached {}.value
  }

  /// Three tasks off any actor that each wait twice for a helper of their own: their jobs
  /// never meet, so one order stands for all of them.
  @Test func tasksThatNeverMeetCoverTheirSpaceInFewSchedules() async {
    let scenario: @MainActor @Sendable (Exploration) async -> Void = { exploration in
      let tasks = (0..<3).map { _ in
        Task.detached {
          await Self.helped()
          await Self.helped()
          return 1
        }
      }
      var ended = 0
      for task in tasks { ended += await task.value }
      let all = ended
      exploration.atEnd("all three ended") { all == 3 }
    }
    let certain = await explore(.exhaustive(), scenario)
    let assumed = await explore(Self.assumed, scenario)
    #expect(assumed.failure == nil)
    #expect(LinuxFacilities.coversOrSaysWhy(assumed))
    #expect(
      assumed.schedules * 10 <= certain.schedules, "\(assumed.schedules) of \(certain.schedules)")
    #expect(assumed.assumption != nil)
    #expect(certain.assumption == nil)
    #expect(assumed.description.contains("It assumed the scenario's tasks share no state"))
  }

  /// Two tasks that meet on one actor: a lost update across an `await` there is still found.
  @Test func jobsThatMeetOnAnActorAreStillOrderedEveryWay() async {
    actor Account {
      var balance = 100
      func read() -> Int { balance }
      func write(_ value: Int) { balance = value }
    }
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(Self.assumed) { exploration in
        let account = Account()
        let payments = (0..<2).map { _ in
          Task.detached {
            let balance = await account.read()
            await account.write(balance - 10)
          }
        }
        for payment in payments { await payment.value }
        let balance = await account.balance
        exploration.atEnd("both payments count") { balance == 80 }
      }
    }
    #expect(report?.failure != nil)
  }

  /// A count behind a `Mutex` that two tasks read, then write one more, with helpers waited
  /// for between: the second reads after the first wrote in the default order. The scope
  /// does not see the `Mutex` and takes the two tasks' jobs to commute, so it runs one order
  /// of them and misses the lost update, as the assumption warns. The default reduction
  /// finds it.
  @Test func anOrderThatMattersOnlyThroughAMutexIsMissed() async {
    final class Count: Sendable {
      let value = Mutex(0)
    }
    let scenario: @MainActor @Sendable (Exploration) async -> Void = { exploration in
      let count = Count()
      // Not awaited: the scenario's end comes once nothing can run, and a task ending with
      // the scenario waiting for it would be one more effect the two share.
      Task.detached {
        let read = count.value.withLock { $0 }
        await Self.helped()
        count.value.withLock { $0 = read + 1 }
      }
      Task.detached {
        await Self.helped()
        await Self.helped()
        let read = count.value.withLock { $0 }
        await Self.helped()
        count.value.withLock { $0 = read + 1 }
      }
      exploration.atEnd("both increments count") { count.value.withLock { $0 } == 2 }
    }
    var certain: ExplorationReport?
    await withKnownIssue { certain = await explore(.exhaustive(), scenario) }
    #expect((certain?.failure?.scheduleNumber ?? 0) > 1)
    let assumed = await explore(Self.assumed, scenario)
    #expect(assumed.failure == nil)
    #expect(assumed.assumption?.contains("Mutex") == true)
  }

  /// An action that starts a main-actor task beside tasks off any actor that never meet it:
  /// what the action did is recorded as a job's is, so taking it before or after a job it
  /// does not meet counts as one order, and the space is covered in fewer schedules.
  @Test func anActionThatMeetsNoJobIsNotTakenAtEveryPoint() async {
    let scenario: @MainActor @Sendable (Exploration) async -> Void = { exploration in
      let tasks = (0..<2).map { _ in
        Task.detached {
          await Self.helped()
          await Self.helped()
          return 1
        }
      }
      exploration.action("tap") { Task {} }
      var ended = 0
      for task in tasks { ended += await task.value }
      let all = ended
      exploration.atEnd("both tasks ended") { all == 2 }
    }
    let assumed = await explore(Self.assumed, scenario)
    #expect(assumed.failure == nil)
    #expect(LinuxFacilities.coversOrSaysWhy(assumed))
    // Taken at each of the points between the tasks' jobs, as a choice that commutes with
    // nothing is, the action alone makes more than ninety schedules.
    #expect(assumed.schedules < 10, "\(assumed.schedules)")
  }

  /// An action that changes main-actor state a main-actor task reads on both sides of an
  /// `await`: the two meet on the main actor, so the action is still taken between the reads.
  @Test func anActionIsStillOrderedAgainstTheJobsItMeets() async {
    final class Screen {
      var title = "old"
    }
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(Self.assumed) { exploration in
        let screen = Screen()
        let render = Task {
          let before = screen.title
          await Self.helped()
          return before == screen.title
        }
        exploration.action("rename") { screen.title = "new" }
        let steady = await render.value
        exploration.atEnd("the title does not change while it renders") { steady }
      }
    }
    #expect(report?.failure != nil)
  }
}
