// The everyday styles: one loader test written the README's way, the same hand-offs written by
// hand, and the flaky test the README's way replaces. EverydayBenchmarks.swift times them.

import Dependencies
import Synchronization
import TaskProviding
import TaskProvidingTesting

/// A loader as the getting-started article writes one: a tap spawns a task through the
/// provider, which awaits the injected dependency and stores what it answers.
@MainActor final class EverydayLoader {
  private(set) var value: Int?
  private let load: @Sendable (Int) async throws -> Int
  @Dependency(\.taskProvider) private var taskProvider

  init(load: @escaping @Sendable (Int) async throws -> Int) {
    self.load = load
  }

  /// The task comes back only for the floor with this loader's plumbing, which awaits it.
  @discardableResult
  func loadButtonTapped(_ input: Int) -> Task<Void, Never> {
    taskProvider.task { self.value = try? await self.load(input) }
  }
}

/// The loader of an app built with nonisolated async functions that run on their caller's
/// actor (`NonisolatedNonsendingByDefault`, the approachable-concurrency setting): its
/// dependency is called on the main actor instead of the pool.
@MainActor final class CallerIsolatedLoader {
  private(set) var value: Int?
  private let load: nonisolated(nonsending) @Sendable (Int) async throws -> Int
  @Dependency(\.taskProvider) private var taskProvider

  init(load: nonisolated(nonsending) @escaping @Sendable (Int) async throws -> Int) {
    self.load = load
  }

  func loadButtonTapped(_ input: Int) {
    taskProvider.task { self.value = try? await self.load(input) }
  }
}

/// The same loader as the articles start from: `Task { }` directly.
@MainActor final class NaiveLoader {
  private(set) var value: Int?
  private let load: @Sendable (Int) async throws -> Int

  init(load: @escaping @Sendable (Int) async throws -> Int) {
    self.load = load
  }

  func loadButtonTapped(_ input: Int) {
    Task { self.value = try? await self.load(input) }
  }
}

/// The loader with its task handed back, for the hand-written test that awaits it.
@MainActor final class HandWrittenLoader {
  private(set) var value: Int?
  private let load: @Sendable (Int) async throws -> Int

  init(load: @escaping @Sendable (Int) async throws -> Int) {
    self.load = load
  }

  func loadButtonTapped(_ input: Int) -> Task<Void, Never> {
    Task { self.value = try? await self.load(input) }
  }
}

/// The least a test can do to hold a call and answer it: one continuation each way, no
/// timeouts, no records, no scope.
final class HandOff: Sendable {
  private struct State {
    var call: CheckedContinuation<Int, any Error>?
    var waiter: CheckedContinuation<Void, Never>?
  }
  private let state = Mutex(State())

  /// The dependency: parks the caller and wakes the test.
  @Sendable func call(_ input: Int) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
      let waiter = state.withLock { state in
        state.call = continuation
        return state.waiter.take()
      }
      waiter?.resume()
    }
  }

  /// Waits until a call is parked.
  func nextCall(isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) { continuation in
      let ready = state.withLock { state in
        if state.call != nil { return true }
        state.waiter = continuation
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Answers the parked call.
  func answer(_ output: Int) {
    state.withLock { $0.call.take() }?.resume(returning: output)
  }
}

/// One test in each style; each returns whether its assertion held.
enum EverydayStyle: String, CaseIterable, Sendable {
  /// The README's first style: a recording provider scoped to the test (what the
  /// `.recordingTaskProvider` trait does), a `ControlledFunction`, `nextCall()`, `answer`,
  /// `waitForAll()`, assert.
  case recommended = "recording provider + ControlledFunction"
  /// The same test under `withSerialScheduler`.
  case serial = "the same, under withSerialScheduler"
  /// The recommended style, for an app whose nonisolated async functions run on their
  /// caller's actor: the dependency's call stays on the main actor.
  case callerIsolated = "the same, dependency on the caller's actor"
  /// The same hand-offs written by hand, without the toolkit: `Task { }`, a continuation to
  /// wait for the call, one to answer it, `await task.value`. The floor of the recommended
  /// style: what it costs beyond this is the toolkit's.
  case handWritten = "floor: the same hand-offs, hand-written"
  /// The floor with the recommended style's dependency plumbing and nothing of the toolkit's
  /// testing side: a live provider installed for the test through swift-dependencies' task
  /// local, as the recording provider's scope installs its own, and read by the loader
  /// through `@Dependency`. What the recommended style costs beyond this is the toolkit's
  /// records, waits and checks; what this costs beyond the floor is swift-dependencies'.
  case handWrittenWithDependency = "floor with the provider read through @Dependency"
  /// The articles' starting point: spawn, yield once, assert.
  case naive = "naive: spawn, one Task.yield(), assert"

  /// Runs one test of this style on the main actor, where the loop that times it runs too:
  /// a hop there and back per test would be the harness's cost, not the style's, and would
  /// add the same two thread switches to every style.
  @MainActor func run() async throws -> Bool {
    switch self {
    case .recommended: try await Self.recommendedTest()
    case .serial: try await withSerialScheduler { try await Self.recommendedTest() }
    case .callerIsolated: try await Self.callerIsolatedTest()
    case .handWritten: await Self.handWrittenTest()
    case .handWrittenWithDependency: await Self.handWrittenWithDependencyTest()
    case .naive: await Self.naiveTest()
    }
  }

  @MainActor static func callerIsolatedTest() async throws -> Bool {
    try await withRecordingTaskProvider { _ in
      let load = ControlledFunction<Int, Int>("load")
      let loader = CallerIsolatedLoader(load: load.function)
      loader.loadButtonTapped(3)
      try await load.nextCall().answer(9)
      try await RecordingTaskProvider.current.waitForAll()
      return loader.value == 9
    }
  }

  @MainActor static func handWrittenTest() async -> Bool {
    let handOff = HandOff()
    let loader = HandWrittenLoader(load: handOff.call)
    let task = loader.loadButtonTapped(3)
    await handOff.nextCall()
    handOff.answer(9)
    await task.value
    return loader.value == 9
  }

  @MainActor static func handWrittenWithDependencyTest() async -> Bool {
    var values = DependencyValues._current
    values.taskProvider = LiveTaskProvider()
    return await DependencyValues.$_current.withValue(values) {
      let handOff = HandOff()
      let loader = EverydayLoader(load: handOff.call)
      let task = loader.loadButtonTapped(3)
      await handOff.nextCall()
      handOff.answer(9)
      await task.value
      return loader.value == 9
    }
  }

  @MainActor static func recommendedTest() async throws -> Bool {
    try await withRecordingTaskProvider { _ in
      let load = ControlledFunction<Int, Int>("load")
      let loader = EverydayLoader(load: load.function)
      loader.loadButtonTapped(3)
      try await load.nextCall().answer(9)
      try await RecordingTaskProvider.current.waitForAll()
      return loader.value == 9
    }
  }

  /// The articles' starting point, on the main actor as the recommended test is and as a
  /// test of a `@MainActor` model is written: spawn, yield once, assert; the mock answers
  /// after one suspension.
  @MainActor static func naiveTest() async -> Bool {
    let loader = NaiveLoader(load: { input in
      await Task.yield()
      return input * 3
    })
    loader.loadButtonTapped(3)
    await Task.yield()
    return loader.value == 9
  }

}
