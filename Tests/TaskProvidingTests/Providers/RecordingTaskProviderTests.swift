import ConcurrencyExtras
import Dependencies
import TaskProviding
import TaskProvidingTesting
import Testing

@Suite struct RecordingTaskProviderTests {
  @Test func waitForAllAwaitsNestedSpawnsIncludingThoseMadeWhileWaiting() async throws {
    let provider = RecordingTaskProvider()
    let latch = Latch()
    let finished = LockIsolated<[String]>([])
    provider.task(name: "parent") {
      await latch.wait()
      provider.task(name: "child") {
        provider.detachedTask(name: "grandchild") { finished.withValue { $0.append("grandchild") } }
        finished.withValue { $0.append("child") }
      }
      finished.withValue { $0.append("parent") }
    }

    async let waited: Void = provider.waitForAll()
    latch.open()
    try await waited

    #expect(Set(finished.value) == ["parent", "child", "grandchild"])
    #expect(provider.records.map(\.name) == ["parent", "child", "grandchild"])
    #expect(provider.records.allSatisfy { $0.status == .finished })
    #expect(provider.pendingCount == 0)
  }

  @Test func waitForAllReturnsAtOnceWhenNothingIsPending() async throws {
    let provider = RecordingTaskProvider()
    try await provider.waitForAll()
    #expect(provider.records.isEmpty)
  }

  @Test func timeoutNamesTheStuckTaskAndCancelAllEndsIt() async throws {
    let provider = RecordingTaskProvider()
    let stuck = Latch()
    let line: UInt = #line + 1
    provider.task(name: "stuck-fetch") { await stuck.wait() }
    provider.task(name: "quick") {}

    // Thrown, not also reported: the test catches it, so it stays green.
    let waitLine: UInt = #line + 1  // inside `#require`, the line the macro starts on
    let error = try await #require(throws: PendingTasksError.self) {
      try await provider.waitForAll(timeout: .milliseconds(100))
    }
    #expect(error.pending.map(\.name) == ["stuck-fetch"])
    #expect(error.wait == "waitForAll()")
    #expect(error.location?.line == waitLine)
    #expect(
      error.description.contains(
        "waitForAll() at TaskProvidingTests/RecordingTaskProviderTests.swift:\(waitLine) timed out"
      ))
    #expect(error.description.contains("\"stuck-fetch\""))
    #expect(error.description.contains("RecordingTaskProviderTests.swift:\(line)"))
    #expect(provider.pendingCount == 1)

    provider.cancelAll()
    try await provider.waitForAll()
    let record = try #require(provider.records.first)
    #expect(record.status == .finished)
    #expect(record.isCancelled)
  }

  @Test func pendingRecordShowsCancellationBeforeItFinishes() async throws {
    let provider = RecordingTaskProvider()
    let latch = Latch()
    let task = provider.task { await latch.wait() }
    #expect(provider.pendingCount == 1)
    #expect(provider.records.first?.isCancelled == false)

    task.cancel()
    #expect(provider.records.first?.isCancelled == true)
    #expect(provider.records.first?.isPending == true)
    try await provider.waitForAll()
  }

  @Test func expectNoPendingTasksFailsTheTestNamingEachTask() async throws {
    let provider = RecordingTaskProvider()
    let latch = Latch()
    provider.task(name: "forgotten") { await latch.wait() }

    withKnownIssue {
      provider.expectNoPendingTasks()
    } matching: { issue in
      issue.description.contains("\"forgotten\"")
        && issue.description.contains("RecordingTaskProviderTests.swift")
    }

    latch.open()
    try await provider.waitForAll()
    provider.expectNoPendingTasks()
  }

  @Test func scopedFormFailsATestThatLeavesATaskBehind() async {
    let leaked = LockIsolated<RecordingTaskProvider?>(nil)
    await withKnownIssue {
      await withRecordingTaskProvider(timeout: .milliseconds(50)) { provider in
        leaked.setValue(provider)
        @Dependency(\.taskProvider) var taskProvider
        taskProvider.task(name: "leaked") {
          for await _ in AsyncStream<Never>.makeStream().stream {}
        }
      }
    } matching: { issue in
      issue.description.contains("\"leaked\"")
    }
    // The scope cancels what it reports, so the leak cannot outlive the test.
    try? await leaked.value?.waitForAll()
    #expect(leaked.value?.records.first?.isCancelled == true)
  }

  @Test func scopedFormWaitsForTasksThatFinishAndInstallsTheProvider() async throws {
    let done = LockIsolated(false)
    let records = await withRecordingTaskProvider { provider in
      @Dependency(\.taskProvider) var taskProvider
      #expect(taskProvider as? RecordingTaskProvider === provider)
      taskProvider.task(name: "finishes") { done.setValue(true) }
      return provider
    }.records
    #expect(done.value)
    #expect(records.map(\.status) == [.finished])
  }

  @Test func manyConcurrentSpawnersLoseNothing() async throws {
    let provider = RecordingTaskProvider()
    let count = LockIsolated(0)
    await withTaskGroup(of: Void.self) { group in
      for spawner in 0..<50 {
        group.addTask {
          for index in 0..<20 {
            provider.task(name: "\(spawner)-\(index)") { count.withValue { $0 += 1 } }
          }
        }
      }
    }
    try await provider.waitForAll()
    #expect(count.value == 1_000)
    #expect(provider.records.count == 1_000)
    #expect(Set(provider.records.compactMap(\.name)).count == 1_000)
    #expect(provider.records.map(\.index) == Array(0..<1_000))
    #expect(provider.pendingCount == 0)
  }

  @Test func recordsAPriorityAsAsked() async throws {
    let provider = RecordingTaskProvider()
    provider.detachedTask(priority: .background) {}
    provider.task {}
    try await provider.waitForAll()
    #expect(provider.records.map(\.priority) == [.background, nil])
  }
}
