// The sample "manual-style" of HoldingAndSteppingTasks.md, whole, as a reader copies it.

// sample: manual-style
import TaskProvidingTesting
import Testing

@MainActor @Suite(.manualTaskProvider) struct SearchModelHeldTests {
  @Test func isSearchingWhileTheSearchIsHeld() async {
    let model = SearchModel(search: { _ in ["Swift"] })
    model.queryChanged("swift")
    #expect(model.isSearching)  // the search is spawned and held
    #expect(model.results.isEmpty)

    await ManualTaskProvider.current.runNext()
    #expect(!model.isSearching)
    #expect(model.results == ["Swift"])
  }
}
// end sample
