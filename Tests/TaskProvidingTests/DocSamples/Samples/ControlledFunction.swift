// The sample "controlled-function" of ControllingDependencies.md, whole, as a reader copies it.

// sample: controlled-function
import TaskProvidingTesting
import Testing

@MainActor @Suite(.recordingTaskProvider) struct ProfileLoaderLoadingTests {
  @Test func showsLoadingUntilTheServerAnswers() async throws {
    let load = ControlledFunction<Void, String>("profile load")
    let loader = ProfileLoader(load: { (try? await load.function(())) ?? "" })
    loader.appeared()

    let call = try await load.nextCall()  // the loader is waiting for the server
    #expect(loader.name == nil)
    call.answer("Ada")
    try await RecordingTaskProvider.current.waitForAll()
    #expect(loader.name == "Ada")
  }
}
// end sample
