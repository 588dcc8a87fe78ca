// The sample "readme-example" of README.md and testing-async.md, whole, as a reader copies it.

// sample: readme-example
import Dependencies
import TaskProvidingTesting
import Testing

@testable import MyApp

@MainActor @Suite struct UploaderScopedTests {
  @Test func uploadFinishes() async throws {
    let provider = RecordingTaskProvider()
    let uploader = withDependencies {
      $0.taskProvider = provider
    } operation: {
      Uploader(upload: { _ in })
    }
    uploader.uploadButtonTapped("a.txt")
    try await provider.waitForAll()
    #expect(uploader.uploaded == ["a.txt"])
  }
}
// end sample
