// The everyday style on package-benchmark: a thousand loader tests of each style to an
// iteration, every style beside the hand-written floor and the naive test in the same run.
// `Benchmarks/run check` holds each to its stored figure in a release build, as CI runs it;
// `Benchmarks/run everyday` runs the same benchmarks in the debug build an adopter's tests run
// in and writes docs/benchmarks/everyday.md, the figures the style's goals are judged by.

import Benchmark

/// A failed assertion in a style whose assertion must hold: the run fails, not just its figure.
struct EverydayAssertionFailed: Error, CustomStringConvertible {
  let style: EverydayStyle
  let failures: Int

  var description: String { "the \(style.rawValue) test failed \(failures) times" }
}

// Names have no spaces: the harness writes a threshold file with spaces made underscores
// but looks it up by the name as it is.
let benchmarks: @Sendable () -> Void = {
  // Time on a shared two-core machine varies by a third from run to run, and by more than
  // twice while other work holds both cores: a time fails only at five times its figure.
  let timeTolerance = BenchmarkThresholds(relative: [.p90: 400])
  // Allocations hardly vary: a tenth more fails.
  let countTolerance = BenchmarkThresholds(relative: [.p90: 10])
  // Reported, never held to a stored figure: the naive test's failures are the point of
  // showing it, and every other style fails the run at its first failure instead.
  let assertionFailed = BenchmarkMetric.custom(
    "assertionFailed", polarity: .prefersSmaller, useScalingFactor: false)
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal, assertionFailed], timeUnits: .microseconds,
    warmupIterations: 3, scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 100,
    thresholds: [.wallClock: timeTolerance, .mallocCountTotal: countTolerance])
  for style in EverydayStyle.allCases {
    Benchmark("everyday-\(style.benchmarkName)", configuration: configuration) { benchmark in
      let count = benchmark.scaledIterations.count
      let failures = count - (try await runTests(of: style, count: count))
      benchmark.measurement(assertionFailed, failures)
      if style != .naive, failures > 0 {
        throw EverydayAssertionFailed(style: style, failures: failures)
      }
    }
  }
}

extension EverydayStyle {
  /// The style's name among the benchmarks.
  var benchmarkName: String {
    switch self {
    case .recommended: "recommended"
    case .serial: "recommended-under-withSerialScheduler"
    case .callerIsolated: "recommended-dependency-on-callers-actor"
    case .handWritten: "floor-hand-written"
    case .handWrittenWithDependency: "floor-with-dependency-read"
    case .naive: "naive-spawn-yield-assert"
    }
  }
}

/// Runs `count` tests of `style` one after another on the main actor, where each style's
/// test runs, so no test pays a hop there and back that the test itself does not make.
/// Returns how many held their assertion.
@MainActor func runTests(of style: EverydayStyle, count: Int) async throws -> Int {
  var held = 0
  for _ in 0..<count where try await style.run() { held += 1 }
  return held
}
