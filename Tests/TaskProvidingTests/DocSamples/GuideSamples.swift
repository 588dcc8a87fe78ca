// The code samples of README.md and docs/testing-async.md live here, between
// `// sample: NAME` and `// end sample` lines, so they are compiled and run;
// DocSampleTests checks that the documents quote them exactly.

import ConcurrencyExtras
import Dependencies
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import MyApp

// sample: naive-doer
final class NaiveDoer: Sendable {
  let done = LockIsolated(false)

  func doSomething() {
    Task { self.done.setValue(true) }
  }
}

@Test(.disabled("Races: the assertion usually runs before the task does."))
func naiveDoerDoesSomething() {
  let doer = NaiveDoer()
  doer.doSomething()
  #expect(doer.done.value)
}
// end sample

@MainActor
@Suite struct DocSampleScenarios {

  // sample: manual-example
  @Test func showsProgressWhileUploading() async {
    let provider = ManualTaskProvider()
    let uploader = withDependencies {
      $0.taskProvider = provider
    } operation: {
      Uploader(upload: { _ in })
    }
    uploader.uploadButtonTapped("a.txt")
    #expect(uploader.isUploading)  // the task is held: nothing has run yet
    #expect(provider.records.map(\.name) == ["upload a.txt"])

    await provider.runNext()  // runs it to the end
    #expect(!uploader.isUploading)
    #expect(uploader.uploaded == ["a.txt"])
  }
  // end sample

  // sample: scoped-example
  @Test func leavesNoUploadBehind() async throws {
    try await withRecordingTaskProvider { provider in
      let uploader = Uploader(upload: { _ in })
      uploader.uploadButtonTapped("a.txt")
      uploader.uploadButtonTapped("b.txt")
      try await provider.waitForAll()
      #expect(uploader.uploaded == ["a.txt", "b.txt"])
    }  // fails the test if a task is still running here
  }
  // end sample

  // sample: start-next-example
  @Test func uploadWaitsForTheServer() async throws {
    let provider = ManualTaskProvider()
    let (accepted, accept) = AsyncStream<Void>.makeStream()
    let uploader = withDependencies {
      $0.taskProvider = provider
    } operation: {
      Uploader(upload: { _ in for await _ in accepted {} })
    }
    uploader.uploadButtonTapped("a.txt")
    provider.startNext()  // running, and waiting on the server
    #expect(uploader.isUploading)

    accept.finish()  // the server answers
    try await provider.waitForRunningTasks()
    #expect(!uploader.isUploading)
    #expect(uploader.uploaded == ["a.txt"])
  }
  // end sample
}
