// The sample "uploader" of README.md and testing-async.md and ReportingFailures.md, whole, as a reader copies it:
// the app target's code, whose tests reach its internal members with `@testable import MyApp`.

// sample: uploader
import Dependencies
import TaskProviding

@MainActor
final class Uploader {
  @Dependency(\.taskProvider) private var taskProvider
  private let upload: @Sendable (String) async -> Void
  private(set) var isUploading = false
  private(set) var uploaded: [String] = []

  init(upload: @escaping @Sendable (String) async -> Void) {
    self.upload = upload
  }

  func uploadButtonTapped(_ file: String) {
    isUploading = true
    taskProvider.task(name: "upload \(file)") {
      await upload(file)
      uploaded.append(file)
      isUploading = false
    }
  }
}
// end sample
