// From the field: Kingfisher's cancel and its store of the download raced as two plain tasks
// (https://github.com/onevcat/Kingfisher/pull/2526): when the cancel reached the holder
// first, it found nothing to cancel, and the download stored after it ran on. Shrunk and
// retold: here the download never finishes on its own, so a lost cancel leaves the load
// waiting for ever.

import LockSupport
import TaskProviding
import TaskProvidingTesting

/// A download that ends only when cancelled.
final class Download: Sendable {
  private struct State {
    var cancelled = false
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = Locked(State())

  /// Returns once the download is cancelled.
  func wait() async {
    await withCheckedContinuation { continuation in
      let cancelled = state.withLock { state -> Bool in
        if !state.cancelled { state.waiter = continuation }
        return state.cancelled
      }
      if cancelled { continuation.resume() }
    }
  }

  func cancel() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.cancelled = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}

/// Holds the download in flight. Flawed: a cancel before the store is forgotten.
actor DownloadHolder {
  private var download: Download?
  func store(_ download: Download) { self.download = download }
  func cancel() { download?.cancel() }
}

/// The fix: the holder remembers a cancel and cancels a download stored after it.
actor LatchingDownloadHolder {
  private var download: Download?
  private var cancelled = false

  func store(_ download: Download) {
    self.download = download
    if cancelled { download.cancel() }
  }

  func cancel() {
    cancelled = true
    download?.cancel()
  }
}

extension CatalogEntry {
  static let cancelBeforeStore = CatalogEntry(
    name: "a cancel and a store race as two plain tasks (Kingfisher)",
    summary: "the cancel reaches the holder before the download is stored, which then runs on",
    bug: { exploration in
      let holder = DownloadHolder()
      try await cancelALoad(
        exploration, store: { await holder.store($0) }, cancel: { await holder.cancel() })
    },
    fixed: { exploration in
      let holder = LatchingDownloadHolder()
      try await cancelALoad(
        exploration, store: { await holder.store($0) }, cancel: { await holder.cancel() })
    })

  @MainActor
  private static func cancelALoad(
    _ exploration: Exploration, store: @escaping @Sendable (Download) async -> Void,
    cancel: @escaping @Sendable () async -> Void
  ) async throws {
    let load = Task.detached(name: "load a.png") {
      let download = Download()
      await withTaskCancellationHandler {
        Task { await store(download) }
        await download.wait()
      } onCancel: {
        Task { await cancel() }
      }
    }
    Task.detached(name: "scroll away") { load.cancel() }
    await load.value
  }
}
