// The everyday style on package-benchmark: a thousand loader tests of each style to an
// iteration, every style beside the hand-written floor and the naive test in the same run,
// and `Benchmarks/run check` holds each to its stored figure. The tests are Everyday.swift's,
// the file numberfact-bench and Benchmarks/adopter-everyday also build.
//
// This is a release build, as the harness makes it. The goal figures (the recommended style
// against the floor, in the debug build an adopter's tests run in) come from
// Benchmarks/adopter-everyday/run, which builds the same tests that way.

import Benchmark

// Names have no spaces: the harness writes a threshold file with spaces made underscores
// but looks it up by the name as it is.
let benchmarks: @Sendable () -> Void = {
  // Time on a shared two-core machine varies by a third from run to run, and by more than
  // twice while other work holds both cores: a time fails only at five times its figure.
  let timeTolerance = BenchmarkThresholds(relative: [.p90: 400])
  // Allocations hardly vary: a tenth more fails.
  let countTolerance = BenchmarkThresholds(relative: [.p90: 10])
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 3,
    scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 100,
    thresholds: [.wallClock: timeTolerance, .mallocCountTotal: countTolerance])
  for style in EverydayStyle.allCases {
    Benchmark("everyday-\(style.benchmarkName)", configuration: configuration) { benchmark in
      blackHole(try await runTests(of: style, count: benchmark.scaledIterations.count))
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
