// The sample "observable-model" of AdoptingInAnObservableModel.md and AwaitingTasks.md and GettingStarted.md and HoldingAndSteppingTasks.md and WaitingOnState.md, whole, as a reader copies it.

// sample: observable-model
import Dependencies
import Observation
import TaskProviding

@MainActor @Observable
final class SearchModel {
  private(set) var results: [String] = []
  private(set) var isSearching = false

  // Observation would track the wrapper's storage; the provider is not state.
  @ObservationIgnored @Dependency(\.taskProvider) private var taskProvider
  @ObservationIgnored private let search: @Sendable (String) async throws -> [String]
  @ObservationIgnored private var current: Task<Void, Never>?

  init(search: @escaping @Sendable (String) async throws -> [String]) {
    self.search = search
  }

  func queryChanged(_ query: String) {
    current?.cancel()
    isSearching = true
    current = taskProvider.task(name: "search \(query)") {
      let found = try? await self.search(query)
      guard !Task.isCancelled else { return }  // a newer query owns the screen
      self.results = found ?? []
      self.isSearching = false
    }
  }
}
// end sample
