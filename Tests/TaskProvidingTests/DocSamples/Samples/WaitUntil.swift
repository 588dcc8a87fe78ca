// The sample "wait-until" of WaitingOnState.md, whole, as a reader copies it.

// sample: wait-until
import TaskProvidingTesting
import Testing

@MainActor @Suite(.recordingTaskProvider) struct SearchModelStateTests {
  @Test func namesAppearWithoutReachingTheTask() async throws {
    let model = SearchModel(search: { query in [query.uppercased()] })
    model.queryChanged("swift")
    try await waitUntil(model) { !$0.isSearching }
    #expect(model.results == ["SWIFT"])
  }
}
// end sample
