// The sample "caught-timeout" of ReportingFailures.md, whole, as a reader copies it.

// sample: caught-timeout
import TaskProvidingTesting
import Testing

@testable import MyApp

@MainActor @Suite(.recordingTaskProvider) struct StuckUploadTests {
  @Test func aStuckUploadIsNamed() async throws {
    let upload = ControlledFunction<String, Void>("upload")
    let uploader = Uploader(upload: { try? await upload.function($0) })
    uploader.uploadButtonTapped("a.txt")  // its upload waits for an answer
    do {
      try await RecordingTaskProvider.current.waitForAll(timeout: .milliseconds(300))
      Issue.record("the upload finished without an answer")
    } catch let error as PendingTasksError {
      #expect(error.pending.map(\.name) == ["upload a.txt"])
    }
    try await upload.nextCall().answer(())
  }
}
// end sample
