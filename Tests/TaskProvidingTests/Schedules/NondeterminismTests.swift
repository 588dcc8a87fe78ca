import Synchronization
import TaskProvidingTesting
import Testing

/// A scenario whose order changes from one run to the next for a reason the explorer does not
/// control is reported as uncontrolled nondeterminism, never as the scenario's failure; a
/// failure is run once more before it is reported, and the report says when it went another
/// way.
@MainActor @Suite(.exploresInProcess) struct NondeterminismTests {
  /// Counts runs of a scenario across its schedules: state outside every schedule's scope.
  final class Runs {
    var count = 0
  }

  /// The order tasks ran in.
  final class Order: Sendable {
    let items = Mutex<[Int]>([])
    func ran(_ item: Int) { items.withLock { $0.append(item) } }
  }

  @Test func aScheduleThatGoesAnotherWayIsNotTheScenariosFailure() async {
    let runs = Runs()
    let report = await explore(.exhaustive()) { _ in
      runs.count += 1
      // Every other run spawns a task more: the decisions a run meets after the same choices
      // change with something outside the scope.
      let spawned = runs.count.isMultiple(of: 2) ? 3 : 2
      let tasks = (0..<spawned).map { _ in Task { await Task.yield() } }  // virtual time
      for task in tasks { await task.value }
    }
    #expect(report.failure == nil)
    #expect(!report.isComplete)
    #expect(report.nondeterminism?.contains("an earlier run with the same choices met") == true)
    #expect(report.description.contains("Uncontrolled nondeterminism"))
  }

  @Test func aFailureThatDoesNotHappenAgainIsReportedAsSuch() async {
    let runs = Runs()
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive()) { exploration in
        runs.count += 1
        let isFirst = runs.count == 1
        let task = Task { await Task.yield() }  // virtual time
        await task.value
        exploration.atEnd("a later run") { !isFirst }
      }
    } matching: {
      $0.description.contains("(uncontrolled nondeterminism)")
    }
    #expect(report?.failure?.scheduleNumber == 1)
    #expect(report?.failure?.nondeterminism?.contains("but it did not fail") == true)
  }

  @Test func aFailureThatHappensAgainCarriesNoNote() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive()) { exploration in
        let order = Order()
        let first = Task.detached { order.ran(1) }
        let second = Task.detached { order.ran(2) }
        await first.value
        await second.value
        let ran = order.items.withLock { $0 }
        exploration.atEnd("the first task ran first") { ran == [1, 2] }
      }
    }
    #expect(report?.failure != nil)
    #expect(report?.failure?.nondeterminism == nil)
  }

  @Test func aReplayStringThatDoesNotFitSaysSo() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive(), replay: "x2:0.7") { _ in
        let tasks = (0..<2).map { _ in Task { await Task.yield() } }  // virtual time
        for task in tasks { await task.value }
      }
    } matching: {
      $0.description.contains("does not fit this scenario")
    }
    #expect(report?.failure?.reason.contains("option 7 is not there at decision 0") == true)
  }
}
