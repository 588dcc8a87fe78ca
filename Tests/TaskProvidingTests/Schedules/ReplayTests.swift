import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

/// A replay string runs exactly the schedule it names, and one that is not a replay string
/// is reported, not run.
@MainActor @Suite(.exploresInProcess) struct ReplayTests {
  @Test func aMalformedReplayIsReportedNotRun() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive(), replay: "0.1.2") { _ in }
    } matching: {
      $0.description.contains("is not a replay string")
    }
    #expect(report?.schedules == 0)
  }

  @Test func randomSchedulesReplayExactly() async {
    let build: @MainActor (Exploration) async throws -> Void = { exploration in
      let search = ControlledFunction<String, [String]>("search", answers: { [$0] })
      let model = SupersedingSearch(taskProvider: exploration.provider, search: search.function)
      exploration.action("type sw") { model.queryChanged("sw") }
      exploration.action("type swift") { model.queryChanged("swift") }
      exploration.invariant("loading while the latest search is in flight") {
        guard let latest = exploration.provider.records.last, latest.isPending else {
          return true
        }
        return model.isLoading
      }
    }
    var found: ExplorationReport?
    await withKnownIssue { found = await explore(.random(seed: 11, schedules: 500), build) }
    let failure = try? #require(found?.failure)
    #expect(failure?.replay.hasPrefix("x2:") == true)
    var again: ExplorationReport?
    await withKnownIssue {
      again = await explore(.random(seed: 11), replay: failure?.replay, build)
    }
    #expect(again?.failure?.steps == failure?.steps)
  }
}

/// A search box whose superseded search clears the flag of the one that replaced it: the
/// flaw the replayed schedules show.
@MainActor private final class SupersedingSearch {
  private let taskProvider: any TaskProvider
  private let search: @Sendable (String) async throws -> [String]
  private var current: Task<Void, Never>?
  private(set) var isLoading = false
  private(set) var results: [String] = []

  init(
    taskProvider: any TaskProvider, search: @escaping @Sendable (String) async throws -> [String]
  ) {
    self.taskProvider = taskProvider
    self.search = search
  }

  func queryChanged(_ query: String) {
    current?.cancel()
    isLoading = true
    current = taskProvider.task(name: "search \(query)") {
      let found = (try? await self.search(query)) ?? []
      if !Task.isCancelled { self.results = found }
      self.isLoading = false  // also when superseded: the flaw
    }
  }
}
