// The sample "wait-helper" of ReportingFailures.md, whole, as a reader copies it.

// sample: wait-helper
import TaskProvidingTesting
import Testing

@testable import MyApp

@MainActor
func expectUploaded(
  _ file: String, by uploader: Uploader,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) async throws {
  try await RecordingTaskProvider.current.waitForAll(
    fileID: fileID, filePath: filePath, line: line, column: column)
  #expect(uploader.uploaded.contains(file))
}
// end sample
