// The feature's timing-sensitive scenarios, two ways: our way, the suite's own scenarios
// (Tests/FeatureScenarios, which synchronize on the controlled client's requests and on the
// tasks' ends), and the naive way (spawn `Task { … }`, yield, assert). Both check the same
// outcomes.

import ConcurrencyExtras
import FeatureScenarios
import Foundation
import NumberFactCore
import NumberFactTesting
import TaskProviding
import TaskProvidingTesting

/// A check that did not hold.
struct CheckFailed: Error, CustomStringConvertible {
  let description: String
}

/// Throws when `condition` is false: the benchmark's `#require`.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw CheckFailed(description: message()) }
}

/// The scenarios measured for determinism.
enum Scenario: String, CaseIterable, Sendable {
  case factClearsWhileLoading = "fact clears while loading"
  case loadingWhileInFlight = "isLoading while in flight"
  case outOfOrder = "back-to-back, out of order"
  case incrementWhileLoading = "increment while loading"
  case cancelWhileLoading = "cancel while loading"

  /// The suite's scenario that checks the same outcome, our way.
  var ours: FeatureScenario {
    switch self {
    case .factClearsWhileLoading: .factClearsWhileLoading
    case .loadingWhileInFlight: .loadingUntilSuccess
    case .outOfOrder: .outOfOrderStaleAnswersLast
    case .incrementWhileLoading: .incrementWhileLoading
    case .cancelWhileLoading: .cancelWhileLoading
    }
  }
}

/// How a test waits for the task it spawned before asserting.
enum Approach: String, CaseIterable, Sendable {
  /// Synchronize on the controlled client and the awaited taps, with a recording provider,
  /// each iteration under `withSerialScheduler`, as the suite's repetition tests run.
  case ours = "ours"
  /// The same scenarios on the runtime's own executors: every hand-over between the test
  /// and the model is a main-actor job the runtime schedules.
  case oursDefaultExecutors = "ours, default executors"
  /// `Task { … }`, then one `Task.yield()`.
  case naiveYield = "naive: one Task.yield()"
  /// `Task { … }`, then `Task.megaYield()` (20 yields).
  case naiveMegaYield = "naive: Task.megaYield()"

  func run(_ scenario: Scenario) async throws {
    switch self {
    case .ours:
      try await MainActor.run { try withSerialScheduler { try await scenario.ours.run() } }
    case .oursDefaultExecutors: try await scenario.ours.run()
    case .naiveYield: try await Naive.run(scenario) { await Task.yield() }
    case .naiveMegaYield: try await Naive.run(scenario) { await Task.megaYield() }
    }
  }
}

/// The naive way, as the articles start: the test is an ordinary async test function (not
/// on the main actor), the model is, the client answers after one suspension, and the test
/// spawns `Task { await model.getFactButtonTapped() }`, waits a guessed amount, asserts.
enum Naive {
  typealias Wait = @Sendable () async -> Void

  static func run(_ scenario: Scenario, wait: Wait) async throws {
    switch scenario {
    case .factClearsWhileLoading: try await factClearsWhileLoading(wait)
    case .loadingWhileInFlight: try await loadingWhileInFlight(wait)
    case .outOfOrder: try await outOfOrder(wait)
    case .incrementWhileLoading: try await incrementWhileLoading(wait)
    case .cancelWhileLoading: try await cancelWhileLoading(wait)
    }
  }

  /// The articles' mock: a fact after one `Task.yield()`.
  static func goodNumber(checkCancellation: Bool = false) -> NumberFactClient {
    NumberFactClient { number, kind in
      await Task.yield()
      if checkCancellation { try Task.checkCancellation() }
      return NumberFact(number: number, kind: kind, text: "\(number) is a good number.")
    }
  }

  static func model(count: Int = 0, _ client: NumberFactClient) async -> NumberFactFeature {
    await makeFeature(count: count, client: client, provider: LiveTaskProvider())
  }

  static func factClearsWhileLoading(_ wait: Wait) async throws {
    let model = await model(goodNumber())
    await model.getFactButtonTapped()  // an old fact to clear
    let task = Task { await model.getFactButtonTapped() }
    await wait()
    try await check(model.state.fact == nil, "fact not cleared while loading")
    try await check(model.state.isLoading, "not loading")
    await task.value
    try await check(model.state.fact?.text == "0 is a good number.", "fact missing")
  }

  static func loadingWhileInFlight(_ wait: Wait) async throws {
    let model = await model(goodNumber())
    let task = Task { await model.getFactButtonTapped() }
    await wait()
    try await check(model.state.isLoading, "not loading while in flight")
    await task.value
    try await check(!model.state.isLoading, "still loading")
  }

  static func outOfOrder(_ wait: Wait) async throws {
    // The first request to reach the client is slow and answers "stale"; the second is
    // fast and answers "fresh". The test assumes the first tap's request is the slow one.
    let calls = LockIsolated(0)
    let client = NumberFactClient { number, kind in
      let call = calls.withValue { calls in
        defer { calls += 1 }
        return calls
      }
      for _ in 0..<(call == 0 ? 5 : 1) { await Task.yield() }
      return NumberFact(number: number, kind: kind, text: call == 0 ? "stale" : "fresh")
    }
    let model = await model(client)
    let first = Task { await model.getFactButtonTapped() }
    await wait()
    let second = Task { await model.getFactButtonTapped() }
    await wait()
    await first.value
    await second.value
    try await check(model.state.fact?.text == "fresh", "stale answer won")
    try await check(!model.state.isLoading, "still loading")
  }

  static func incrementWhileLoading(_ wait: Wait) async throws {
    let model = await model(goodNumber())
    let task = Task { await model.getFactButtonTapped() }
    await wait()
    await model.incrementButtonTapped()
    await task.value
    try await check(model.state.count == 1, "count not incremented")
    try await check(model.state.fact == nil, "stale fact shown for 1")
    try await check(!model.state.isLoading, "still loading")
  }

  static func cancelWhileLoading(_ wait: Wait) async throws {
    let model = await model(count: 7, goodNumber(checkCancellation: true))
    let task = Task { await model.getFactButtonTapped() }
    await wait()
    await model.cancelButtonTapped()
    await task.value
    try await check(model.state.fact == nil, "fact arrived after cancel")
    try await check(!model.state.isLoading, "still loading")
  }
}

/// One run of `iterations` repetitions of a scenario: how many failed, and how long each took.
struct DeterminismRun: Sendable {
  let failures: Int
  let microsecondsPerIteration: Double
  let firstFailure: String?
}

func measureDeterminism(
  _ scenario: Scenario, _ approach: Approach, iterations: Int
) async -> DeterminismRun {
  if approach == .ours { return await measureSerially(scenario, iterations: iterations) }
  let clock = ContinuousClock()
  var failures = 0
  var firstFailure: String?
  let start = clock.now
  for _ in 0..<iterations {
    do {
      try await approach.run(scenario)
    } catch {
      failures += 1
      if firstFailure == nil { firstFailure = "\(error)" }
    }
  }
  let elapsed = clock.now - start
  return DeterminismRun(
    failures: failures,
    microsecondsPerIteration: elapsed.seconds * 1e6 / Double(iterations),
    firstFailure: firstFailure)
}

/// Ours, from the main actor: one scheduler per iteration, as a test calls it, without a hop
/// to the main actor per iteration that no test pays.
@MainActor
func measureSerially(_ scenario: Scenario, iterations: Int) -> DeterminismRun {
  let clock = ContinuousClock()
  var failures = 0
  var firstFailure: String?
  let start = clock.now
  for _ in 0..<iterations {
    do {
      try withSerialScheduler { try await scenario.ours.run() }
    } catch {
      failures += 1
      if firstFailure == nil { firstFailure = "\(error)" }
    }
  }
  let elapsed = clock.now - start
  return DeterminismRun(
    failures: failures,
    microsecondsPerIteration: elapsed.seconds * 1e6 / Double(iterations),
    firstFailure: firstFailure)
}

extension Report {
  func determinismSection() -> [String] {
    guard !determinism.isEmpty else { return [] }
    var lines = [
      "", "## Determinism", "",
      "Each scenario \(plan.iterations.formatted()) times per run, in one process. *Ours* "
        + "is the test suite's own scenario (Tests/FeatureScenarios), which synchronizes on "
        + "the controlled client's requests and on the tasks' ends, with a recording task "
        + "provider, each iteration under `withSerialScheduler`, as the suite's repetition "
        + "tests run it. *Ours, default executors* is the same code without "
        + "the scheduler: each hand-over between the test and the main-actor model is then a "
        + "main-actor job, which costs a thread wake-up. *Naive* is the articles' starting "
        + "point: an ordinary async test function spawns `Task { await "
        + "model.getFactButtonTapped() }`, yields once (or calls `Task.megaYield()`, 20 "
        + "yields), then asserts; the mock client answers after one `Task.yield()`.", "",
      "| Scenario | "
        + Approach.allCases.map { "\($0.rawValue): failures" }.joined(separator: " | ")
        + " | " + Approach.allCases.map { "\($0.rawValue): µs/iteration" }.joined(separator: " | ")
        + " | ours ÷ naive one-yield |",
      "|---" + String(repeating: "|---:", count: Approach.allCases.count * 2 + 1) + "|",
    ]
    for row in determinism {
      let failures = Approach.allCases.map {
        "\(row.failures($0).formatted(0)) / \(plan.iterations.formatted())"
      }
      let speeds = Approach.allCases.map { row.microseconds($0).formatted(1) }
      let ratio = Summary.format(
        row.microseconds(.ours).median / row.microseconds(.naiveYield).median, 2)
      lines.append(
        "| \(row.scenario.rawValue) | " + (failures + speeds + [ratio]).joined(separator: " | ")
          + " |")
    }
    let examples = determinism.compactMap { row in
      row.firstFailure(.naiveYield).map { "\(row.scenario.rawValue): \($0)" }
    }
    if !examples.isEmpty {
      lines += ["", "How the naive tests failed (first failure of each):", ""]
      lines += examples.map { "- \($0)" }
    }
    return lines
  }
}
