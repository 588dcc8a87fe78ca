import ConcurrencyExtras
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

// Its tasks run on the main actor within 5-second bounds: no exploration may hold it meanwhile.
@MainActor
@Suite struct ManualTaskProviderTests {
  @Test func holdsEachTaskUntilRunNextAndReturnsWhenItHasFinished() async {
    let provider = ManualTaskProvider()
    var ran = false
    let task = provider.task(name: "held") { ran = true }

    #expect(!ran)
    #expect(provider.heldCount == 1)
    #expect(provider.pendingCount == 1)
    #expect(provider.records.map(\.status) == [.held])

    await provider.runNext()
    #expect(ran)
    #expect(provider.heldCount == 0)
    #expect(provider.pendingCount == 0)
    #expect(provider.records.map(\.status) == [.finished])
    await task.value
  }

  @Test func waitForHeldTasksReturnsOnceCodeElsewhereHasSpawned() async throws {
    let provider = ManualTaskProvider()
    let ran = LockIsolated(false)
    // Code elsewhere spawns at a time the test does not control.
    let spawner = Task.detached {
      _ = provider.task(name: "late") { ran.setValue(true) }
    }
    try await provider.waitForHeldTasks()
    #expect(provider.heldCount == 1)
    #expect(provider.records.map(\.name) == ["late"])
    await provider.runNext()
    #expect(ran.value)
    await spawner.value
  }

  @Test func waitForHeldTasksCountsOnlyHeldOnes() async throws {
    let provider = ManualTaskProvider()
    provider.task {}
    provider.task {}
    try await provider.waitForHeldTasks(2)
    provider.startNext()
    let error = try await #require(throws: PendingTasksError.self) {
      try await provider.waitForHeldTasks(2, timeout: .milliseconds(20))
    }
    #expect(error.description.contains("waitForHeldTasks(2) at"))
    await provider.runAll()
  }

  @Test func runNextReleasesTheOldestFirst() async {
    let provider = ManualTaskProvider()
    var order: [String] = []
    provider.task { order.append("a") }
    provider.detachedTask { @MainActor in order.append("b") }
    provider.task { order.append("c") }

    await provider.runNext()
    #expect(order == ["a"])
    await provider.runNext()
    #expect(order == ["a", "b"])
    await provider.runNext()
    #expect(order == ["a", "b", "c"])
  }

  @Test func runAllRunsTasksSpawnedMeanwhileInSpawnOrder() async {
    let provider = ManualTaskProvider()
    var order: [String] = []
    provider.task(name: "a") {
      order.append("a")
      provider.task(name: "a.1") {
        order.append("a.1")
        provider.task(name: "a.1.1") { order.append("a.1.1") }
      }
      provider.task(name: "a.2") { order.append("a.2") }
    }
    provider.task(name: "b") { order.append("b") }

    await provider.runAll()
    #expect(order == ["a", "b", "a.1", "a.2", "a.1.1"])
    #expect(provider.records.map(\.name) == ["a", "b", "a.1", "a.2", "a.1.1"])
    #expect(provider.pendingCount == 0)
  }

  @Test func aCancelledHeldTaskStillRunsAndSeesCancellation() async {
    let provider = ManualTaskProvider()
    let task = provider.task { Seen.current() }
    task.cancel()
    #expect(provider.records.first?.isCancelled == true)
    #expect(provider.records.first?.status == .held)

    await provider.runNext()
    let seen = await task.value
    #expect(seen.isCancelled)
    #expect(provider.records.first?.status == .finished)
  }

  @Test func cancelAllCancelsHeldTasks() async throws {
    let provider = ManualTaskProvider()
    let first = provider.task { try Seen.throwing() }
    let second = provider.detachedTask { Seen.current() }
    provider.cancelAll()
    await provider.runAll()
    await #expect(throws: CancellationError.self) { try await first.value }
    #expect(await second.value.isCancelled)
  }

  @Test func startNextLetsTheTestActWhileTheTaskRuns() async throws {
    let provider = ManualTaskProvider()
    let answer = AsyncStream<Int>.makeStream()
    var answers: [Int] = []
    provider.task(name: "awaits-answer") {
      for await value in answer.stream { answers.append(value) }
    }
    provider.task(name: "stays-held") {}

    let started = provider.startNext()
    #expect(started?.name == "awaits-answer")
    #expect(provider.records.map(\.status) == [.running, .held])

    answer.continuation.yield(42)
    answer.continuation.finish()
    try await provider.waitForRunningTasks()
    #expect(answers == [42])
    #expect(provider.records.map(\.status) == [.finished, .held])
    await provider.runAll()
  }

  @Test func waitForRunningTasksTimesOutNamingTheRunningTask() async throws {
    let provider = ManualTaskProvider()
    let latch = Latch()
    provider.task(name: "never-answered") { await latch.wait() }
    provider.startNext()
    let line: UInt = #line + 1  // inside `#require`, the line the macro starts on
    let error = try await #require(throws: PendingTasksError.self) {
      try await provider.waitForRunningTasks(timeout: .milliseconds(100))
    }
    // Named by the wait's own line, with the task.
    #expect(error.pending.map(\.name) == ["never-answered"])
    #expect(error.location?.line == line)
    latch.open()
    try await provider.waitForRunningTasks()
  }

  @Test func runNextWithNothingHeldReportsAnIssue() async {
    let provider = ManualTaskProvider()
    await withKnownIssue {
      await provider.runNext()
    } matching: {
      $0.description.contains("no held task")
    }
  }

  @Test func runNextReportsATaskThatAwaitsAHeldOne() async throws {
    let provider = ManualTaskProvider()
    provider.task(name: "parent") {
      let child = provider.task(name: "child") {}
      await child.value
    }
    await withKnownIssue {
      await provider.runNext(timeout: .milliseconds(100))
    } matching: { issue in
      issue.description.contains("\"parent\"") && issue.description.contains("\"child\"")
    }
    await provider.runAll()  // runs the child; the parent then finishes on its own
    try await provider.waitForRunningTasks()
    #expect(provider.pendingCount == 0)
  }

  @Test func manyConcurrentSpawnersLoseNothing() async {
    let provider = ManualTaskProvider()
    let count = LockIsolated(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<50 {
        group.addTask {
          for _ in 0..<20 {
            provider.detachedTask { count.withValue { $0 += 1 } }
          }
        }
      }
    }
    #expect(provider.heldCount == 1_000)
    #expect(count.value == 0)
    await provider.runAll()
    #expect(count.value == 1_000)
    #expect(provider.pendingCount == 0)
  }
}

extension ManualTaskProviderTests {
  /// The scoped form takes a base as the recording one does: each task is spawned through
  /// it, and still waits for the test to release it.
  @Test func theScopedFormSpawnsThroughItsBase() async {
    let base = RecordingTaskProvider()
    var ran = false
    await withManualTaskProvider(base: base) { provider in
      provider.task(name: "held") { ran = true }
      #expect(base.records.map(\.name) == ["held"])
      #expect(!ran)
      await provider.runNext()
      #expect(ran)
    }
    #expect(base.records.map(\.status) == [.finished])
  }
}
