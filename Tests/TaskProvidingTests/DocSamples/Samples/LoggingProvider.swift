// The sample "logging-provider" of WritingAProvider.md, whole, as a reader copies it.

// sample: logging-provider
import TaskProviding

struct LoggingTaskProvider: TaskProvider {
  let base: any TaskProvider = LiveTaskProvider()
  let log: @Sendable (String) -> Void

  func spawn<Success: Sendable>(
    _ spawn: TaskSpawn, isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    log("\(spawn.kind) \(spawn.name ?? "unnamed") at \(spawn.location)")
    return base.spawn(spawn, isolation: isolation, operation: operation)
  }

  func spawn<Success: Sendable>(
    _ spawn: TaskSpawn, isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    log("\(spawn.kind) \(spawn.name ?? "unnamed") at \(spawn.location)")
    return base.spawn(spawn, isolation: isolation, operation: operation)
  }
}
// end sample
