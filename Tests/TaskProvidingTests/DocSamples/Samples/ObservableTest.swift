// The sample "observable-test" of AdoptingInAnObservableModel.md and GettingStarted.md, whole, as a reader copies it.

// sample: observable-test
import TaskProvidingTesting
import Testing

@MainActor @Suite(.recordingTaskProvider)
struct SearchModelTests {
  @Test func aStaleAnswerNeverReplacesANewerOne() async throws {
    // `.ignore`: the first search answers even after it was cancelled, as a slow server may.
    let search = ControlledFunction<String, [String]>("search", cancellation: .ignore)
    let model = SearchModel(search: search.function)

    model.queryChanged("sw")
    let first = try await search.nextCall()
    model.queryChanged("swift")
    let second = try await search.nextCall()

    second.answer(["Swift"])
    first.answer(["Swahili"])  // late, and stale
    try await RecordingTaskProvider.current.waitForAll()
    #expect(model.results == ["Swift"])
    #expect(!model.isSearching)
  }
}
// end sample
