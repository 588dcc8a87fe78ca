// The sample "migration-test" of MigratingFromTask.md, whole, as a reader copies it.

// sample: migration-test
import TaskProvidingTesting
import Testing

@MainActor @Suite(.recordingTaskProvider) struct ProfileLoaderTests {
  @Test func showsTheNameOnceLoaded() async throws {
    let loader = ProfileLoader(load: { "Ada" })
    loader.appeared()
    try await RecordingTaskProvider.current.waitForAll()
    #expect(loader.name == "Ada")
  }
}
// end sample
