import ExplorationScenarios
import Foundation
import Glibc

/// Sizes for one benchmark run.
struct Plan: Sendable {
  var runs: Int
  var iterations: Int
  var scaleSizes: [Int]
  var presses: Int
  var idle: Duration
  var suite: Bool
  /// Seeds per strategy when counting schedules until a flaw is found.
  var explorationSeeds = 9
  /// Seeds per sampling strategy for the sampling figure.
  var samplingSeeds = 20
  /// How long the fact client waits on a silent server in the fact client's section.
  var clientWait: Duration = .seconds(3)
  /// Round trips of the foreign loop in ownership's section.
  var ownershipTrips = 20_000
  /// Tests of each style per run in the section on code that sleeps.
  var sleepingTests = 10_000
  /// Facts in the store the store's section fills.
  var storedFacts = 100_000

  static let full = Plan(
    runs: 5, iterations: 10_000, scaleSizes: [1_000, 10_000, 100_000], presses: 1_000,
    idle: .seconds(10), suite: true)

  static let quick = Plan(
    runs: 2, iterations: 200, scaleSizes: [1_000, 10_000], presses: 50, idle: .seconds(1),
    suite: false,
    explorationSeeds: 3, samplingSeeds: 3, clientWait: .seconds(1), ownershipTrips: 2_000,
    sleepingTests: 500,
    storedFacts: 2_000)

  var configuration: String {
    #if DEBUG
      "debug"
    #else
      "release"
    #endif
  }
}

struct DeterminismRow: Sendable {
  let scenario: Scenario
  var runs: [Approach: [DeterminismRun]] = [:]

  func failures(_ approach: Approach) -> Summary {
    Summary((runs[approach] ?? []).map { Double($0.failures) })
  }

  func microseconds(_ approach: Approach) -> Summary {
    Summary((runs[approach] ?? []).map(\.microsecondsPerIteration))
  }

  func firstFailure(_ approach: Approach) -> String? {
    (runs[approach] ?? []).lazy.compactMap(\.firstFailure).first
  }
}

struct ScaleRow: Sendable {
  let tasks: Int
  let probes: [ScaleProbe]

  var total: Int { tasks + (tasks + 9) / 10 }
  var wait: Summary { Summary(probes.map(\.waitSeconds)) }
  var spawn: Summary { Summary(probes.map(\.spawnSeconds)) }
  /// Spawn and wait together, per task including children.
  var microsecondsPerTask: Summary {
    Summary(probes.map { ($0.spawnSeconds + $0.waitSeconds) * 1e6 / Double(total) })
  }
  var laterWait: Summary { Summary(probes.map(\.laterWaitMicroseconds)) }
  var peak: Summary { Summary(probes.map { megabytes(Double($0.peakResidentBytes)) }) }

  /// Peak memory above `baseline` bytes, per task including children.
  func bytesPerTask(above baseline: Double) -> Summary {
    Summary(probes.map { (Double($0.peakResidentBytes) - baseline) / Double(total) })
  }
}

/// Everything measured, and how to print it.
struct Report: Sendable {
  let plan: Plan
  let command: String
  var determinism: [DeterminismRow] = []
  /// Peak resident bytes of a probe that records nothing: the runtime's share.
  var scaleBaseline: Summary?
  var scale: [ScaleRow] = []
  var app: [AppRun] = []
  /// The same drive of a minimal C ncurses program, in the same runs.
  var appBaseline: [AppRun] = []
  var suite: [SuiteRun] = []
  var exploration: ExplorationFigures?
  var sampling: SamplingFigures?
  var reduction: ReductionFigures?
  var client: ClientFigures?
  var ownership: OwnershipFigures?
  var store: StoreFigures?
  var time: TimeFigures?

  /// What must hold for the run to pass: correctness, not speed.
  func problems() -> [String] {
    var problems: [String] = []
    if let time, time.virtualFailures > 0 {
      problems.append("the debounce on virtual time failed \(time.virtualFailures) times")
    }
    if let time, time.trapReport == nil {
      problems.append("the trapping schedule was not reported")
    }
    for row in determinism {
      for approach in [Approach.ours, .oursDefaultExecutors] where row.failures(approach).max > 0 {
        problems.append(
          "\(row.scenario.rawValue) failed (\(approach.rawValue)): "
            + (row.firstFailure(approach) ?? "?"))
      }
    }
    for run in app where run.exitStatus != 0 {
      problems.append("the app exited with \(run.exitStatus) after q")
    }
    for run in (store?.withStore ?? []) + (store?.withoutStore ?? []) where run.exitStatus != 0 {
      problems.append("the app exited with \(run.exitStatus) after q in the store's section")
    }
    for run in suite where run.status != 0 {
      problems.append("swift test exited with \(run.status)")
    }
    for row in scale where row.probes.contains(where: { $0.records != row.total + 100 }) {
      problems.append("recording \(row.tasks) tasks kept the wrong number of records")
    }
    for run in ownership?.runs ?? [] where run.onDriver > 0 {
      problems.append("\(run.onDriver) foreign round trips ran on a scheduler's thread")
    }
    for name in sampling?.missedGoal ?? [] {
      problems.append("no sampler found \(name) within 100 schedules (median)")
    }
    for row in exploration?.catalog ?? [] {
      if row.exhaustive == nil { problems.append("the exhaustive search missed \(row.name)") }
      if row.pct.contains(nil) { problems.append("PCT missed \(row.name) in 100 schedules") }
    }
    return problems
  }

  func markdown() -> String {
    var lines: [String] = []
    lines += [
      "# Benchmarks", "",
      "Written by `numberfact-bench`; do not edit by hand. A timed figure is the median of "
        + "\(plan.runs) runs, with the minimum and maximum in parentheses; the index, "
        + "[README.md](README.md), says what each figure is.", "",
      "| | |", "|---|---|",
      "| Command | `\(command)` |",
      "| Date | \(Self.today()) |",
      "| Build | \(plan.configuration) |",
    ]
    lines += Self.machine().map { "| \($0.0) | \($0.1) |" }
    lines += determinismSection()
    lines += scaleSection()
    lines += appSection()
    lines += suiteSection()
    lines += explorationSection()
    lines += sampling?.markdown() ?? []
    lines += reduction?.markdown() ?? []
    lines += clientSection()
    lines += ownershipSection()
    lines += storeSection()
    lines += timeSection()
    return lines.joined(separator: "\n") + "\n"
  }

  static func today() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return formatter.string(from: Date())
  }

  static func machine() -> [(String, String)] {
    var name = utsname()
    uname(&name)
    func field<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
    let swift =
      (try? runCommand(["swift", "--version"]))
      .flatMap { $0.1.split(separator: "\n").first { $0.contains("Swift version") } }
      .map(String.init) ?? "unknown"
    return [
      ("Machine", "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))"),
      ("CPU", "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores"),
      ("Memory", "\(Summary.format(memory, 1)) GiB"),
      ("Swift", swift),
    ]
  }
}
