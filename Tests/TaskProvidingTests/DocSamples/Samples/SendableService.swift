// The sample "sendable-service" of AdoptingInASendableService.md, whole, as a reader copies it.

// sample: sendable-service
import ConcurrencyExtras
import Dependencies
import TaskProviding

final class Prefetcher: Sendable {
  // A `Sendable` class cannot hold the `@Dependency` wrapper (it is mutable storage), so
  // resolve it once, in `init`, into a constant.
  private let taskProvider: any TaskProvider
  private let fetch: @Sendable (String) async -> Void
  let fetched = LockIsolated<Set<String>>([])

  init(fetch: @escaping @Sendable (String) async -> Void) {
    @Dependency(\.taskProvider) var taskProvider
    self.taskProvider = taskProvider
    self.fetch = fetch
  }

  func prefetch(_ keys: [String]) {
    for key in keys {
      taskProvider.detachedTask(name: "prefetch \(key)", priority: .background) {
        await self.fetch(key)
        _ = self.fetched.withValue { $0.insert(key) }
      }
    }
  }
}
// end sample
