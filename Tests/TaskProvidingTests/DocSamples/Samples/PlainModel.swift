// The sample "plain-model" of AdoptingWithoutSwiftDependencies.md, whole, as a reader copies it.

// sample: plain-model
import TaskProviding

@MainActor
final class Autosave {
  private let taskProvider: any TaskProvider
  private let save: @Sendable (String) async -> Void
  private(set) var saved: [String] = []

  // Production code passes nothing; tests pass a testing provider.
  init(
    taskProvider: any TaskProvider = LiveTaskProvider(),
    save: @escaping @Sendable (String) async -> Void
  ) {
    self.taskProvider = taskProvider
    self.save = save
  }

  func textChanged(_ text: String) {
    taskProvider.task(name: "save") {
      await self.save(text)
      self.saved.append(text)
    }
  }
}
// end sample
