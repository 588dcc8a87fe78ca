import LockSupport
import TaskProviding
import TaskProvidingTesting
import Testing

/// The exploration's provider: a type of its own, which records the scenario's tasks, holds
/// none, and is an `any TaskProvider` wherever one is wanted.
@Suite struct ExplorationTaskProviderTests {
  @Test func itRecordsTheScenariosTasksAndHoldsNone() async {
    let counts = Locked<[Int]>([])
    let report = await explore(.exhaustive()) { exploration in
      let provider: any TaskProvider = exploration.provider
      let first = provider.task(name: "first") {}
      let second = provider.task(name: "second") {}
      await first.value
      await second.value
      counts.withLock { $0.append(exploration.provider.records.count) }
      exploration.atEnd("nothing is pending") { exploration.provider.pendingCount == 0 }
    }
    #expect(report.failure == nil)
    #expect(!counts.withLock { $0 }.isEmpty)
    #expect(counts.withLock { $0 }.allSatisfy { $0 == 2 })
  }

  @Test func theManualProvidersCurrentInAScenarioNamesTheExplorationsProvider() async {
    await withKnownIssue {
      _ = await explore(.exhaustive(limit: 1)) { _ in
        _ = ManualTaskProvider.current
      }
    } matching: { issue in
      issue.description.contains("exploration.provider")
    }
  }
}
