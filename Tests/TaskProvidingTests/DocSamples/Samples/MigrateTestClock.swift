// A test that injected swift-clocks' `TestClock` and advanced it, written with the code's
// own sleep on the scheduler's virtual time instead: the sample is the whole file, as a
// reader copies it.

// sample: migrate-test-clock
import TaskProviding
import TaskProvidingTesting
import Testing

/// A model as an app writes one: a search that waits for typing to pause, with a plain
/// task sleep and no clock to inject.
@MainActor final class Search {
  private let search: @Sendable (String) async -> [String]
  private let taskProvider: any TaskProvider
  private var pending: Task<Void, Never>?
  private(set) var searched: [String] = []

  init(search: @escaping @Sendable (String) async -> [String], taskProvider: any TaskProvider) {
    self.search = search
    self.taskProvider = taskProvider
  }

  func queryChanged(_ query: String) {
    pending?.cancel()
    pending = taskProvider.task(name: "search \(query)") {
      do {
        try await Task.sleep(for: .milliseconds(300))  // virtual time
      } catch {
        return
      }
      self.searched.append(query)
      _ = await self.search(query)
    }
  }
}

@MainActor @Suite struct SearchTests {
  /// Was `await clock.advance(by: .milliseconds(300))`: the scheduler's clock jumps to a
  /// sleep's end once nothing else is ready, so the pause takes no real time.
  @Test func onlyTheLastQueryIsSearched() async throws {
    let searched = try await withSerialScheduler {
      let provider = RecordingTaskProvider()
      let search = Search(search: { [$0] }, taskProvider: provider)
      search.queryChanged("s")
      search.queryChanged("sw")
      search.queryChanged("swift")
      try await provider.waitForAll()
      return search.searched
    }
    #expect(searched == ["swift"])
  }
}
// end sample
