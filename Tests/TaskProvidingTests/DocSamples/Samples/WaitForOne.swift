// The sample "wait-for-one" of AwaitingTasks.md, whole, as a reader copies it.

// sample: wait-for-one
import TaskProvidingTesting
import Testing

@MainActor @Suite(.recordingTaskProvider) struct SearchModelOneTaskTests {
  @Test func waitsForOneSearchOnly() async throws {
    let search = ControlledFunction<String, [String]>("search")
    let model = SearchModel(search: search.function)
    model.queryChanged("swift")
    let call = try await search.nextCall()
    call.answer(["Swift"])
    let provider = RecordingTaskProvider.current
    try await provider.waitFor(provider.records[0])
    #expect(model.results == ["Swift"])
  }
}
// end sample
