// Cancellation checked too early: an upload checks `Task.isCancelled` before it awaits, then
// sends after the await without looking again, so an upload cancelled meanwhile still sends.

import TaskProvidingTesting

/// The upload server: prepares, then receives.
actor UploadServer {
  private(set) var received: [String] = []

  func prepare(_ file: String) -> String { "bytes of \(file)" }
  func receive(_ bytes: String) { received.append(bytes) }
}

/// Uploads a file. Flawed: the only cancellation check comes before the await.
@MainActor
final class Uploader {
  private let server: UploadServer
  private(set) var log: [String] = []

  init(server: UploadServer) { self.server = server }

  func upload(_ file: String) async {
    guard !Task.isCancelled else { return }
    let bytes = await server.prepare(file)
    log.append("send \(file)")
    await server.receive(bytes)
  }

  func note(_ event: String) { log.append(event) }
}

/// The fix: check again after the await, right before the send.
@MainActor
final class RecheckingUploader {
  private let server: UploadServer
  private(set) var log: [String] = []

  init(server: UploadServer) { self.server = server }

  func upload(_ file: String) async {
    guard !Task.isCancelled else { return }
    let bytes = await server.prepare(file)
    guard !Task.isCancelled else { return }
    log.append("send \(file)")
    await server.receive(bytes)
  }

  func note(_ event: String) { log.append(event) }
}

extension CatalogEntry {
  static let cancellationCheckedTooEarly = CatalogEntry(
    name: "cancellation checked too early",
    summary: "an upload cancelled while it prepares still sends the file",
    bug: { exploration in
      let uploader = Uploader(server: UploadServer())
      try await cancelAnUpload(
        exploration, { await uploader.upload($0) }, note: { uploader.note($0) },
        log: { uploader.log })
    },
    fixed: { exploration in
      let uploader = RecheckingUploader(server: UploadServer())
      try await cancelAnUpload(
        exploration, { await uploader.upload($0) }, note: { uploader.note($0) },
        log: { uploader.log })
    })

  @MainActor
  private static func cancelAnUpload(
    _ exploration: Exploration, _ upload: @escaping @MainActor (String) async -> Void,
    note: @escaping @MainActor (String) -> Void, log: @escaping @MainActor () -> [String]
  ) async throws {
    let sending = Task(name: "upload a.txt") { await upload("a.txt") }
    let cancelling = Task(name: "tap cancel") {
      sending.cancel()
      note("cancelled")
    }
    await sending.value
    await cancelling.value
    exploration.atEnd("nothing is sent once the upload is cancelled") {
      let log = log()
      guard let cancelled = log.firstIndex(of: "cancelled") else { return true }
      return !log[cancelled...].contains("send a.txt")
    }
  }
}
