// A test that once waited a fixed number of turns and hoped, written to wait on what the
// code exposes instead: the sample is the whole file, as a reader copies it.

// sample: migrate-mega-yield
import TaskProviding
import TaskProvidingTesting
import Testing

/// A model as an app writes one: a tap spawns a save through the provider.
@MainActor final class Draft {
  private let save: @Sendable (String) async throws -> Void
  private let taskProvider: any TaskProvider
  private(set) var status = "editing"

  init(save: @escaping @Sendable (String) async throws -> Void, taskProvider: any TaskProvider) {
    self.save = save
    self.taskProvider = taskProvider
  }

  func saveTapped(_ text: String) {
    status = "saving"
    taskProvider.task(name: "save") {
      do {
        try await self.save(text)
        self.status = "saved"
      } catch {
        self.status = "failed"
      }
    }
  }
}

@MainActor @Suite(.recordingTaskProvider) struct DraftTests {
  /// Once `draft.saveTapped(…)` then a fixed number of turns: the test waits for the task the
  /// tap spawned, however long it takes, and no longer.
  @Test func aSaveEndsSaved() async throws {
    let draft = Draft(save: { _ in }, taskProvider: RecordingTaskProvider.current)
    draft.saveTapped("hello")
    try await RecordingTaskProvider.current.waitForAll()
    #expect(draft.status == "saved")
  }

  /// The state in between, which a yield count could only guess at: the save is held until
  /// the test answers it.
  @Test func aSaveIsShownWhileItRuns() async throws {
    let save = ControlledFunction<String, Void>()
    let draft = Draft(save: save.function, taskProvider: RecordingTaskProvider.current)
    draft.saveTapped("hello")
    let call = try await save.nextCall()
    #expect(draft.status == "saving")
    #expect(call.answer(()))
    try await RecordingTaskProvider.current.waitForAll()
    #expect(draft.status == "saved")
  }
}
// end sample
