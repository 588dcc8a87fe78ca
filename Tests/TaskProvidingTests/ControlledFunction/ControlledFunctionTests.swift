import ConcurrencyExtras
import TaskProviding
import TaskProvidingTesting
import Testing

@Suite struct ControlledFunctionTests {
  struct Failure: Error, Equatable {}

  @Test func answersReachTheirCallersUnderConcurrentCalls() async throws {
    let square = ControlledFunction<Int, Int>("square")
    try await withThrowingTaskGroup(of: (Int, Int).self) { group in
      for input in 0..<50 {
        group.addTask { (input, try await square.function(input)) }
      }
      for _ in 0..<50 {
        let call = try await square.nextCall()
        #expect(call.answer(call.input * call.input))
      }
      var results: [Int: Int] = [:]
      for try await (input, output) in group { results[input] = output }
      #expect(results.count == 50)
      #expect(results.allSatisfy { $0.value == $0.key * $0.key })
    }
    #expect(square.callCount == 50)
  }

  /// `Task.immediate` runs its body on the main actor until its first suspension. A call that
  /// stays on the caller's actor is made within that run, so it is counted before
  /// `Task.immediate` returns; one that hopped to the pool first would not be.
  @MainActor @Test func aCallerIsolatedFunctionTypeKeepsTheCallOnTheCallersActor() async throws {
    let load = ControlledFunction<Int, Int>("load")
    let function: nonisolated(nonsending) @Sendable (Int) async throws -> Int = load.function
    let caller = Task.immediate { try await function(1) }
    #expect(load.callCount == 1)
    try await load.nextCall().answer(2)
    #expect(try await caller.value == 2)
  }

  @Test func callsAreNumberedInCallOrder() async throws {
    let echo = ControlledFunction<String, String>()
    let first = Task { try await echo.function("a") }
    let call0 = try await echo.nextCall()
    let second = Task { try await echo.function("b") }
    let call1 = try await echo.nextCall()
    #expect((call0.index, call0.input) == (0, "a"))
    #expect((call1.index, call1.input) == (1, "b"))
    #expect(call0.description == "call #0: a")
    call1.answer("B")
    call0.fail(Failure())
    #expect(try await second.value == "B")
    await #expect(throws: Failure.self) { try await first.value }
  }

  @Test func aCallAnsweredTwiceKeepsTheFirstOutcome() async throws {
    let function = ControlledFunction<Int, Int>()
    async let result = function.function(1)
    let call = try await function.nextCall()
    #expect(call.answer(10))
    #expect(!call.answer(20))
    #expect(!call.fail(Failure()))
    #expect(call.isEnded)
    #expect(try await result == 10)
  }

  @Test func cancellationThrowsAtOnceByDefault() async throws {
    let function = ControlledFunction<Int, Int>()
    let caller = Task { try await function.function(1) }
    let call = try await function.nextCall()
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(call.observedCancellation)
    #expect(call.isEnded)
    #expect(!call.answer(1))  // too late: the caller has its outcome
  }

  @Test func cancellationCanBeIgnoredToDeliverALateAnswer() async throws {
    let function = ControlledFunction<Int, Int>(cancellation: .ignore)
    let caller = Task { try await function.function(1) }
    let call = try await function.nextCall()
    caller.cancel()
    try await waitUntilObserved(call)
    #expect(!call.isEnded)
    #expect(call.answer(7))
    #expect(try await caller.value == 7)
  }

  @Test func aCallerCancelledBeforeCallingStillArrivesEnded() async throws {
    let function = ControlledFunction<Int, Int>()
    let caller = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await function.function(1)
    }
    let call = try await function.nextCall()
    #expect(call.observedCancellation)
    #expect(call.isEnded)
    await #expect(throws: CancellationError.self) { try await caller.value }
  }

  @Test func aTimedOutWaitThrowsAtItsLineAndKeepsTheLateCallForTheNextWait() async throws {
    let function = ControlledFunction<Int, Int>("lookup")
    let line: UInt = #line + 1  // inside `#require`, the line the macro starts on
    let error = try await #require(throws: ControlledFunction<Int, Int>.NoCallError.self) {
      _ = try await function.nextCall(timeout: .milliseconds(20))
    }
    #expect(error.location?.line == line)
    #expect(
      error.description.hasPrefix(
        "nextCall() at TaskProvidingTests/ControlledFunctionTests.swift:\(line): "
          + "No lookup arrived within \(TimeoutScale.describe(.milliseconds(20))) "
          + "(0 received"
      ))
    async let result = function.function(3)
    let call = try await function.nextCall()
    #expect(call.input == 3)
    call.answer(9)
    #expect(try await result == 9)
  }

  @Test func aCancelledWaitThrowsCancellationAndLosesNoCall() async throws {
    let function = ControlledFunction<Int, Int>()
    let waiting = Task { try await function.nextCall(timeout: .seconds(600)) }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    async let result = function.function(5)
    try await function.nextCall().answer(25)
    #expect(try await result == 25)
  }

  /// Polls nothing: `observedCancellation` is set synchronously by the cancellation handler,
  /// which runs inside `cancel()`, so it holds once `cancel()` has returned.
  func waitUntilObserved(_ call: ControlledFunction<Int, Int>.Call) async throws {
    try #require(call.observedCancellation)
  }
}

@Suite struct ImmediateTaskTests {
  @MainActor @Test func liveImmediateTaskRunsToItsFirstSuspensionBeforeReturning() async {
    let steps = Steps()
    let latch = Latch()
    let task = LiveTaskProvider().immediateTask(name: "now") {
      steps.append("started on \(Task.name ?? "?")")
      await latch.wait()
      steps.append("resumed")
    }
    #expect(steps.entries == ["started on now"])
    latch.open()
    await task.value
    #expect(steps.entries == ["started on now", "resumed"])
  }

  @MainActor @Test func recordingKeepsTheSynchronousStartAndRecordsTheKind() async throws {
    let provider = RecordingTaskProvider()
    let steps = Steps()
    let latch = Latch()
    let task = provider.immediateTask(name: "now") {
      steps.append("started")
      await latch.wait()
      steps.append("resumed")
    }
    #expect(steps.entries == ["started"])
    #expect(provider.records.map(\.kind) == [.immediate])
    #expect(provider.records[0].description.contains("immediate task \"now\""))
    latch.open()
    try await provider.waitFor(task)
    #expect(steps.entries == ["started", "resumed"])
  }

  @MainActor @Test func throwingImmediateTaskStartsAtOnceToo() async throws {
    let provider = RecordingTaskProvider()
    let steps = Steps()
    struct Stop: Error {}
    let task = provider.immediateTask { () async throws -> Int in
      steps.append("started")
      throw Stop()
    }
    #expect(steps.entries == ["started"])
    await #expect(throws: Stop.self) { try await task.value }
  }

  @MainActor @Test func manualHoldsImmediateTasksLikeAnyOther() async throws {
    let provider = ManualTaskProvider()
    let steps = Steps()
    provider.immediateTask { steps.append("ran") }
    #expect(steps.entries.isEmpty)
    #expect(provider.records.map(\.kind) == [.immediate])
    await provider.runNext()
    #expect(steps.entries == ["ran"])
  }

  /// A conformer writes the two `spawn` requirements and every call form reaches them, each
  /// with its kind, name, priority and the caller's line.
  @MainActor @Test func everyCallFormReachesAConformersTwoRequirements() async throws {
    let provider = KindCountingProvider()
    let line = #line
    await provider.task(name: "a") {}.value
    try await provider.task(name: "b", priority: .low) { () throws in }.value
    await provider.detachedTask(name: "c") {}.value
    try await provider.detachedTask(name: "d") { () throws in }.value
    await provider.immediateTask(name: "e") {}.value
    try await provider.immediateTask(name: "f") { () throws in }.value
    let spawns = provider.spawns.value
    #expect(spawns.map(\.kind) == [.task, .task, .detached, .detached, .immediate, .immediate])
    #expect(spawns.map(\.name) == ["a", "b", "c", "d", "e", "f"])
    #expect(spawns[1].priority == .low)
    #expect(spawns.map(\.location.line) == (1...6).map { UInt(line + $0) })
    #expect(
      spawns.allSatisfy { "\($0.location.fileID)".hasSuffix("ControlledFunctionTests.swift") })
  }
}

@MainActor final class Steps {
  private(set) var entries: [String] = []
  func append(_ entry: String) { entries.append(entry) }
}

/// A conformer as an adopter would write one: it notes each spawn and runs it live.
struct KindCountingProvider: TaskProvider {
  let spawns = LockIsolated<[TaskSpawn]>([])
  private let live = LiveTaskProvider()

  func spawn<Success: Sendable>(
    _ spawn: TaskSpawn, isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    spawns.withValue { $0.append(spawn) }
    return live.spawn(spawn, isolation: isolation, operation: operation)
  }

  func spawn<Success: Sendable>(
    _ spawn: TaskSpawn, isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    spawns.withValue { $0.append(spawn) }
    return live.spawn(spawn, isolation: isolation, operation: operation)
  }
}

@Suite struct BoundedWaitTests {
  @Test func anUnansweredCallFailsItsCallerAfterTheAnswerTimeout() async throws {
    let function = ControlledFunction<Int, Int>("lookup", answerTimeout: .milliseconds(30))
    let caller = Task { try await function.function(4) }
    let call = try await function.nextCall()
    let error = await #expect(throws: ControlledFunction<Int, Int>.UnansweredCallError.self) {
      try await caller.value
    }
    #expect(error?.description.contains("lookup #0: 4 was not answered within 0.03") == true)
    #expect(call.isEnded)
    #expect(!call.answer(1))
  }

  @Test func aCallThatIgnoresCancellationStillEndsAtTheAnswerTimeout() async throws {
    // The cancellation must come before the timeout ends the call: 30 ms was too short for
    // a loaded machine under ThreadSanitizer.
    let function = ControlledFunction<Int, Int>(
      cancellation: .ignore, answerTimeout: .seconds(1))
    let caller = Task { try await function.function(4) }
    let call = try await function.nextCall()
    caller.cancel()
    #expect(call.observedCancellation)
    await #expect(throws: ControlledFunction<Int, Int>.UnansweredCallError.self) {
      try await caller.value
    }
  }

  @Test func aBoundedValueReturnsTheTasksValue() async throws {
    let task = Task { 42 }
    #expect(try await task.value(timeout: .seconds(5)) == 42)
    struct Oops: Error {}
    let failing = Task { () throws -> Int in throw Oops() }
    await #expect(throws: Oops.self) { try await failing.value(timeout: .seconds(5)) }
  }

  @Test func aBoundedValueThrowsNamingItsLineWhenTheTaskDoesNotEnd() async throws {
    let never = ControlledFunction<Int, Int>(answerTimeout: .seconds(60))
    let stuck = Task { try? await never.function(1) }
    let line: UInt = #line + 1  // inside `#require`, the line the macro starts on
    let error = try await #require(throws: TaskTimeoutError.self) {
      _ = try await stuck.value(timeout: .milliseconds(20))
    }
    #expect(error.location?.line == line)
    #expect(
      error.description.contains(
        "ControlledFunctionTests.swift:\(line): The awaited task did not end within"))
    stuck.cancel()
    _ = try await stuck.value(timeout: .seconds(5))
  }

  @Test func aBoundedValueWaitIsCancellable() async throws {
    let never = ControlledFunction<Int, Int>(answerTimeout: .seconds(60))
    let stuck = Task { try? await never.function(1) }
    let waiting = Task { try await stuck.value(timeout: .seconds(600)) }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    stuck.cancel()
    _ = try await stuck.value(timeout: .seconds(5))
  }
}
