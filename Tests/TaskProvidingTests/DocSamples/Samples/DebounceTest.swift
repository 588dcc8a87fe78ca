// The sample "debounce-test" of TestingCodeThatSleeps.md, whole, as a reader copies it.

// sample: debounce-test
import TaskProvidingTesting
import Testing

@MainActor @Suite struct DebouncedSearchFieldTests {
  @Test @MainActor func typingQuicklySearchesOnce() throws {
    let searches = try withSerialScheduler {
      let field = DebouncedSearchField()
      field.type("s")
      field.type("sw")
      field.type("swift")
      await field.settled()
      return field.searches
    }
    #expect(searches == ["swift"])
  }
}
// end sample
