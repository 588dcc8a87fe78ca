// The sample "readme-trait-example" of README.md, whole, as a reader copies it.

// sample: readme-trait-example
import TaskProvidingTesting
import Testing

@testable import MyApp

@MainActor @Suite(.recordingTaskProvider)
struct UploaderTests {
  @Test func uploadsEveryFile() async throws {
    let uploader = Uploader(upload: { _ in })
    uploader.uploadButtonTapped("a.txt")
    uploader.uploadButtonTapped("b.txt")
    try await RecordingTaskProvider.current.waitForAll()
    #expect(uploader.uploaded == ["a.txt", "b.txt"])
  }
}
// end sample
