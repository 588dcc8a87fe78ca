import ConcurrencyExtras
import Dispatch
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

/// swift-concurrency-extras' main serial executor beside explorations and serial schedulers,
/// all at once in one process. The main serial executor takes the runtime's global enqueue
/// hook, which scopes also need: the toolkit chains to it for every job that is not a
/// scope's, and restores it when done, so both keep their promises.
///
/// The process is a child of its own (an exit test), and everything runs in parallel inside
/// it. Not this test process: a `withMainSerialExecutor` that begins while a scope is open
/// reads the toolkit's hook as its own, so it leaves the main serial executor on when it
/// ends, and every later test here would find its pool work on the main actor.
@Suite(.timeLimit(.minutes(2))) struct BesideMainSerialExecutorTests {
  @Test(.exitTestThread) func explorationsSchedulersAndTheMainSerialExecutorRunTogether() async {
    await #expect(processExitsWith: .success) {
      await withTaskGroup(of: Void.self) { group in
        // One at a time among themselves: two `withMainSerialExecutor` calls at once turn
        // it off under each other.
        group.addTask {
          for _ in 0..<16 { await Self.theMainSerialExecutorKeepsItsOrder() }
        }
        for _ in 0..<3 {
          group.addTask { await Self.anExplorationSeesEverySchedule() }
          group.addTask { await Self.aSerialSchedulerKeepsItsOrder() }
        }
      }
    }
  }

  /// Marks the main queue, so that a job can tell it runs there.
  private static let mainQueue: DispatchSpecificKey<Int> = {
    let key = DispatchSpecificKey<Int>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// Under the main serial executor every task's jobs run on the main queue, one at a time,
  /// in the order they were enqueued: detached tasks append their numbers in spawn order,
  /// each on the main queue. Without the chaining they would run on the pool.
  private static func theMainSerialExecutorKeepsItsOrder() async {
    let key = mainQueue
    await withMainSerialExecutor {
      let seen = LockIsolated<[Int]>([])
      let onMainQueue = LockIsolated(true)
      let tasks = (0..<32).map { number in
        Task.detached {
          let onMain = DispatchQueue.getSpecific(key: key) == 1
          onMainQueue.withValue { $0 = $0 && onMain }
          seen.withValue { $0.append(number) }
        }
      }
      for task in tasks { await task.value }
      #expect(onMainQueue.value)
      #expect(seen.value == Array(0..<32))
    }
  }

  /// Three taps racing on one model, every order within two departures, while main-serial
  /// calls come and go.
  @MainActor private static func anExplorationSeesEverySchedule() async {
    for _ in 0..<4 {
      let report = await TapLoader.exploreThreeTaps(.exhaustive(departures: 2))
      #expect(report.failure == nil)
      #expect(report.isComplete)
      #expect(report.schedules == 211)
    }
  }

  /// A serial scheduler beside them runs its body's tasks in spawn order, every time.
  @MainActor private static func aSerialSchedulerKeepsItsOrder() async {
    for _ in 0..<20 {
      let order = try? await withSerialScheduler {
        let seen = LockIsolated<[Int]>([])
        let tasks = (0..<16).map { number in Task { seen.withValue { $0.append(number) } } }
        for task in tasks { await task.value }
        return seen.value
      }
      #expect(order == Array(0..<16))
    }
  }
}
