// The sample "tap-counter" of RunningEveryInterleaving.md, whole, as a reader copies it.

// sample: tap-counter
import TaskProviding

@MainActor final class TapCounter {
  private let taskProvider: any TaskProvider
  private(set) var count = 0

  init(taskProvider: any TaskProvider) { self.taskProvider = taskProvider }

  func tapped() {
    // Detached: each tap's first step is a job for the global pool, which the scheduler
    // places somewhere else among the main actor's jobs for each seed.
    taskProvider.detachedTask { await self.increment() }
  }

  private func increment() { count += 1 }
}
// end sample
