import ConcurrencyExtras
import Dependencies
import TaskProviding
import TaskProvidingTesting
import Testing

/// A model as an adopter writes one: it resolves its provider at init.
@MainActor
final class Spawner {
  @Dependency(\.taskProvider) private var taskProvider
  private(set) var finished: [String] = []

  func spawn(_ name: String) {
    taskProvider.task(name: name) { self.finished.append(name) }
  }

  func spawnStuck(_ name: String, on latch: Latch) {
    taskProvider.task(name: name) { await latch.wait() }
  }
}

@MainActor @Suite struct RecordingTraitTests {
  @Test(.recordingTaskProvider)
  func installsAFreshRecorderAsTheDependency() async throws {
    let spawner = Spawner()
    spawner.spawn("a")
    spawner.spawn("b")
    try await RecordingTaskProvider.current.waitForAll()
    #expect(spawner.finished == ["a", "b"])
    #expect(RecordingTaskProvider.current.records.map(\.name) == ["a", "b"])
  }

  /// 100 cases run in parallel, each with its own provider: none sees another's tasks.
  @Test(.recordingTaskProvider, arguments: 0..<100)
  func parallelTestsDoNotShareTasks(_ index: Int) async throws {
    let spawner = Spawner()
    for copy in 0..<3 { spawner.spawn("\(index)-\(copy)") }
    let provider = RecordingTaskProvider.current
    try await provider.waitForAll()
    #expect(provider.records.map(\.name) == ["\(index)-0", "\(index)-1", "\(index)-2"])
  }

  @Test func aLeakIsReportedAtTheTestNamingTheTaskThenCancelled() async throws {
    let test = try #require(Test.current)
    let latch = Latch()
    let leaked = LockIsolated<RecordingTaskProvider?>(nil)
    try await withKnownIssue {
      try await TaskProviderTrait.recordingTaskProvider(timeout: .milliseconds(50))
        .provideScope(for: test, testCase: Test.Case.current) {
          await MainActor.run {
            leaked.setValue(RecordingTaskProvider.current)
            Spawner().spawnStuck("left-behind", on: latch)
          }
        }
    } matching: { issue in
      issue.sourceLocation == test.sourceLocation
        && issue.description.contains("The test ended with 1 pending task")
        && issue.description.contains("\"left-behind\"")
        && issue.description.contains("TraitTests.swift")
    }
    let provider = try #require(leaked.value)
    try await provider.waitForAll()  // cancelled, so the latch's wait ended
    #expect(provider.records.first?.isCancelled == true)
  }

  @Test func readingCurrentOutsideAScopeReports() {
    withKnownIssue {
      _ = RecordingTaskProvider.current
    } matching: {
      $0.description.contains(".recordingTaskProvider")
    }
  }
}

@MainActor @Suite(.manualTaskProvider) struct ManualTraitTests {
  @Test func everyTestOfTheSuiteGetsAHoldingProvider() async throws {
    let spawner = Spawner()
    spawner.spawn("held")
    let provider = ManualTaskProvider.current
    #expect(provider.heldCount == 1)
    #expect(spawner.finished.isEmpty)
    await provider.runNext()
    #expect(spawner.finished == ["held"])
  }

  @Test func anotherTestStartsEmpty() {
    #expect(ManualTaskProvider.current.records.isEmpty)
  }

  @Test func aTaskLeftHeldIsReportedCancelledAndReleased() async throws {
    let test = try #require(Test.current)
    let leaked = LockIsolated<ManualTaskProvider?>(nil)
    try await withKnownIssue {
      try await TaskProviderTrait.manualTaskProvider(timeout: .milliseconds(50))
        .provideScope(for: test, testCase: Test.Case.current) {
          await MainActor.run {
            leaked.setValue(ManualTaskProvider.current)
            Spawner().spawn("never-run")
          }
        }
    } matching: { issue in
      issue.sourceLocation == test.sourceLocation && issue.description.contains("\"never-run\"")
    }
    let provider = try #require(leaked.value)
    try await provider.waitForRunningTasks()
    #expect(provider.heldCount == 0)
    #expect(provider.records.map(\.isCancelled) == [true])
    #expect(provider.pendingCount == 0)
  }
}

@Suite struct ScopeTests {
  @Test func anUncaughtWaitErrorIsTheOneFailureNotRepeatedAtTheEndOfTheScope() async throws {
    let latch = Latch()
    let reports = LockIsolated(0)
    try await withKnownIssue {
      try await withRecordingTaskProvider(timeout: .milliseconds(20)) { provider in
        provider.task(name: "stuck") { await latch.wait() }
        try await provider.waitForAll(timeout: .milliseconds(20))
      }
    } matching: { issue in
      if issue.description.contains("\"stuck\"") { reports.withValue { $0 += 1 } }
      return true
    }
    // The thrown error, shown once; no issue from the wait, none from the leak check.
    #expect(reports.value == 1)
    latch.open()
  }

  /// Nothing is reported here: any issue would fail this test.
  @Test func aCaughtWaitErrorLeavesTheTestGreen() async throws {
    let latch = Latch()
    try await withRecordingTaskProvider(timeout: .seconds(5)) { provider in
      provider.task(name: "stuck") { await latch.wait() }
      do {
        try await provider.waitForAll(timeout: .milliseconds(20))
        Issue.record("waitForAll returned with a task stuck")
      } catch let error as PendingTasksError {
        #expect(error.pending.map(\.name) == ["stuck"])
      }
      let function = ControlledFunction<Int, Int>("lookup")
      await #expect(throws: ControlledFunction<Int, Int>.NoCallError.self) {
        _ = try await function.nextCall(timeout: .milliseconds(20))
      }
      let never = Task { await latch.wait() }
      await #expect(throws: TaskTimeoutError.self) {
        try await never.value(timeout: .milliseconds(20))
      }
    }
    latch.open()
  }

  @Test func anUnscopedRecorderReleasedWithPendingTasksReportsThem() async throws {
    let latch = Latch()
    let line = #line + 2
    withKnownIssue {
      let provider = RecordingTaskProvider()
      provider.task(name: "forgotten") { await latch.wait() }
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.description.contains("\"forgotten\"")
        && issue.description.contains("released with 1 pending task")
    }
  }

  @Test func waitForOneRecordOrHandle() async throws {
    try await withRecordingTaskProvider { provider in
      let latch = Latch()
      let slow = provider.task(name: "slow") { await latch.wait() }
      let quick = provider.task(name: "quick") { 42 }
      try await provider.waitFor(quick)
      #expect(provider.records[1].status == .finished)
      #expect(provider.records[0].status == .running)
      latch.open()
      try await provider.waitFor(provider.records[0])
      #expect(provider.pendingCount == 0)
      try await provider.waitFor(slow)  // finished: returns at once
    }
  }

  @Test func waitForOneTaskTimesOutNamingIt() async throws {
    let latch = Latch()
    try await withRecordingTaskProvider(timeout: .milliseconds(20)) { provider in
      let task = provider.task(name: "the-slow-one") { await latch.wait() }
      let error = try await #require(throws: PendingTasksError.self) {
        try await provider.waitFor(task, timeout: .milliseconds(20))
      }
      #expect(error.description.contains("\"the-slow-one\""))
      #expect(error.wait == "waitFor(_:)")
    }
    latch.open()
  }

  @Test func aCancelledWaitReturnsAtOnce() async throws {
    let provider = RecordingTaskProvider()
    let latch = Latch()
    provider.task(name: "stuck") { await latch.wait() }
    let waiting = Task { try await provider.waitForAll(timeout: .seconds(600)) }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    latch.open()
    try await provider.waitForAll()
  }
}
