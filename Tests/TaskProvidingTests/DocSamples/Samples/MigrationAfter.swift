// The sample "migration-after" of ControllingDependencies.md and MigratingFromTask.md, whole, as a reader copies it.

// sample: migration-after
import Dependencies
import TaskProviding

@MainActor
final class ProfileLoader {
  @Dependency(\.taskProvider) private var taskProvider
  private(set) var name: String?
  let load: @Sendable () async -> String

  init(load: @escaping @Sendable () async -> String) { self.load = load }

  func appeared() {
    taskProvider.task(name: "load profile") { self.name = await self.load() }
  }
}
// end sample
