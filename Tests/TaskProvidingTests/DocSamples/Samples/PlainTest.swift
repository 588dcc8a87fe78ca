// The sample "plain-test" of AdoptingWithoutSwiftDependencies.md, whole, as a reader copies it.

// sample: plain-test
import TaskProvidingTesting
import Testing

@MainActor @Test(.manualTaskProvider)
func savesOnlyWhenItsTaskRuns() async {
  let provider = ManualTaskProvider.current
  let autosave = Autosave(taskProvider: provider, save: { _ in })
  autosave.textChanged("draft")
  #expect(autosave.saved.isEmpty)  // held
  await provider.runNext()
  #expect(autosave.saved == ["draft"])
}
// end sample
