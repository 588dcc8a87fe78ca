import ConcurrencyExtras
import Dependencies
import TaskProviding
import TaskProvidingTesting
import Testing

/// The articles' example: a synchronous method spawns a task that mutates state, so a test
/// that asserts right after calling it races the task.
final class SomethingDoer: Sendable {
  private let taskProvider: any TaskProvider
  let somethingHasBeenDone = LockIsolated(false)

  init() {
    @Dependency(\.taskProvider) var taskProvider
    self.taskProvider = taskProvider
  }

  func doSomething() {
    guard !somethingHasBeenDone.value else { return }
    taskProvider.task(priority: .background) { [weak self] in
      await self?.mutateState()
    }
  }

  private func mutateState() async {
    somethingHasBeenDone.setValue(true)
  }
}

@Suite struct ArticleScenarioTests {
  static let repetitions = 10_000

  @Test func recordingProviderPassesEveryRepetition() async throws {
    var failures = 0
    for _ in 0..<Self.repetitions {
      let provider = RecordingTaskProvider()
      let doer = withDependencies {
        $0.taskProvider = provider
      } operation: {
        SomethingDoer()
      }
      doer.doSomething()
      try await provider.waitForAll()
      if !doer.somethingHasBeenDone.value { failures += 1 }
    }
    #expect(failures == 0)
  }

  @Test func manualProviderPassesEveryRepetition() async {
    var failures = 0
    for _ in 0..<Self.repetitions {
      let provider = ManualTaskProvider()
      let doer = withDependencies {
        $0.taskProvider = provider
      } operation: {
        SomethingDoer()
      }
      doer.doSomething()
      if doer.somethingHasBeenDone.value { failures += 1 }  // held: not yet run
      await provider.runAll()
      if !doer.somethingHasBeenDone.value { failures += 1 }
    }
    #expect(failures == 0)
  }
}
