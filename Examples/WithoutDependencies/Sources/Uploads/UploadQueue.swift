import Observation
import TaskProviding

/// A view model that uploads files one tap at a time: it spawns each upload through the
/// provider it was given, so a test can await, hold or step them.
@MainActor @Observable
public final class UploadQueue {
  /// Files that finished uploading, in the order they finished.
  public private(set) var uploaded: [String] = []
  /// Files whose upload is in flight.
  public private(set) var inFlight: Set<String> = []

  @ObservationIgnored private let upload: @Sendable (String) async throws -> Void
  @ObservationIgnored private let taskProvider: any TaskProvider

  /// Creates the queue; production passes `LiveTaskProvider()`.
  public init(
    upload: @escaping @Sendable (String) async throws -> Void,
    taskProvider: any TaskProvider = LiveTaskProvider()
  ) {
    self.upload = upload
    self.taskProvider = taskProvider
  }

  /// Starts uploading `file` and returns at once.
  public func uploadTapped(_ file: String) {
    inFlight.insert(file)
    taskProvider.task(name: "upload \(file)") {
      defer { self.inFlight.remove(file) }
      do {
        try await self.upload(file)
        self.uploaded.append(file)
      } catch {}
    }
  }
}
