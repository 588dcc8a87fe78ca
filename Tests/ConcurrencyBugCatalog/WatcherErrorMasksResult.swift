// From the field: swift-service-lifecycle's `cancelOnGracefulShutdown` lost its operation's
// result (https://github.com/swift-server/swift-service-lifecycle/pull/177): in a task group
// of the operation and a shutdown watcher, a cancelled watcher threw, and the first result
// the group gave was that error, not the operation's value. Shrunk and retold.

import TaskProvidingTesting

/// Work that finishes what it started even when cancelled.
actor Uncancellable {
  func finish() -> Int { 42 }
}

/// Runs `operation` until it ends, watching a shutdown signal beside it. Flawed when
/// `watcherThrows`: the cancelled watcher throws, and the first outcome the group gives
/// wins. The fix: the watcher never throws; cancelled or told to shut down, the group waits
/// for the operation's own outcome.
enum ShutdownWatch {
  static func run(
    _ shutdown: AsyncStream<Void>, watcherThrows: Bool,
    _ operation: @escaping @Sendable () async -> Int
  ) async throws -> Int {
    try await withThrowingTaskGroup(of: Int?.self) { group in
      group.addTask { await operation() }
      group.addTask {
        for await _ in shutdown { return nil }
        if watcherThrows { try Task.checkCancellation() }
        return nil
      }
      while let outcome = try await group.next() {
        if let value = outcome {
          group.cancelAll()
          return value
        }
      }
      throw CancellationError()
    }
  }
}

extension CatalogEntry {
  static let watcherErrorMasksResult = CatalogEntry(
    name: "a watcher's error masks the operation's result in a task group (service-lifecycle)",
    summary: "cancelled while its operation finishes, the call throws instead of returning 42",
    bug: { exploration in try await cancelWhileFinishing(exploration, watcherThrows: true) },
    fixed: { exploration in try await cancelWhileFinishing(exploration, watcherThrows: false) })

  @MainActor
  private static func cancelWhileFinishing(
    _ exploration: Exploration, watcherThrows: Bool
  ) async throws {
    let (shutdown, signal) = AsyncStream.makeStream(of: Void.self)
    let work = Uncancellable()
    let service = Task {
      try await ShutdownWatch.run(shutdown, watcherThrows: watcherThrows) { await work.finish() }
    }
    Task { service.cancel() }
    let outcome = await service.result
    signal.finish()
    exploration.atEnd("the operation's value comes back") { (try? outcome.get()) == 42 }
  }
}
