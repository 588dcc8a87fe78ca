import ArgumentParser
import Foundation
import TaskProviding

/// Measures the claims the project makes, and writes them to `docs/benchmarks/numberfact-bench.md`.
@main
struct NumberFactBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "numberfact-bench",
    abstract: "Measure determinism, recording scale, the app, the suite and the explorer.",
    discussion: """
      Run from the package root: swift run -c release numberfact-bench
      The full run takes about fifteen minutes and rewrites docs/benchmarks/numberfact-bench.md. --quick runs \
      every section with small sizes, writes nothing unless --output is given, and fails \
      if a deterministic scenario fails even once.
      """,
    subcommands: [Measure.self, ScaleProbeCommand.self, TrapChildCommand.self],
    defaultSubcommand: Measure.self)
}

/// A part of the report.
enum Section: String, CaseIterable, ExpressibleByArgument {
  case determinism, scale, app, suite, exploration, sampling, reduction, client, ownership,
    store, time
}

/// The benchmark run.
struct Measure: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "measure", abstract: "Run the benchmarks (the default).")

  @Flag(help: "Small sizes, a smoke test of every section (about a minute in a debug build).")
  var quick = false

  @Option(help: "Runs per figure; each figure is the median of the runs.")
  var runs: Int?

  @Option(help: "Repetitions of each scenario per run (default 10,000; 200 with --quick).")
  var iterations: Int?

  @Option(
    help: """
      Where to write the report (default docs/benchmarks/numberfact-bench.md; none with --quick or --only, \
      whose report holds only the sections run).
      """)
  var output: String?

  @Option(help: "Key presses per app run (default 1,000; 50 with --quick).")
  var presses: Int?

  @Option(help: "The numberfact executable (default: next to this one).")
  var app: String?

  @Option(
    parsing: .upToNextOption,
    help: """
      Run only these sections: determinism, scale, app, suite, exploration, sampling, \
      reduction, client, ownership, store, time (default: all). Provider overhead, waiting \
      cost and the everyday style are Benchmarks/run's (docs/benchmarks/toolkit.md).
      """)
  var only: [Section] = []

  @Flag(help: "Skip timing the test suite (the test suite's section).")
  var skipSuite = false

  @Flag(help: "Skip driving the app on a pseudo-terminal (the app's section).")
  var skipApp = false

  func validate() throws {
    if let runs, runs < 1 { throw ValidationError("--runs must be at least 1.") }
    if let iterations, iterations < 1 {
      throw ValidationError("--iterations must be at least 1.")
    }
    if let presses, presses < 1 { throw ValidationError("--presses must be at least 1.") }
  }

  var plan: Plan {
    var plan = quick ? Plan.quick : Plan.full
    if let runs { plan.runs = runs }
    if let iterations { plan.iterations = iterations }
    if let presses { plan.presses = presses }
    if skipSuite { plan.suite = false }
    if skipApp { plan.presses = 0 }
    return plan
  }

  func run() async throws {
    let plan = plan
    let command = CommandLine.arguments.dropFirst().joined(separator: " ")
    var report = Report(
      plan: plan,
      command: "swift run -c \(plan.configuration) numberfact-bench"
        + (command.isEmpty ? "" : " " + command))
    log("numberfact-bench: \(plan.runs) runs per figure, \(plan.configuration) build")

    let runs = { (section: Section) in only.isEmpty || only.contains(section) }
    if runs(.determinism) { report.determinism = await determinism(plan) }
    if runs(.scale) { (report.scaleBaseline, report.scale) = try await recordingScale(plan) }
    if runs(.app), plan.presses > 0 { (report.app, report.appBaseline) = try await appRuns(plan) }
    if runs(.suite), plan.suite { report.suite = try await suiteRuns(plan) }
    if runs(.client) { report.client = try await clientFigures(plan) }
    if runs(.exploration) {
      let seeds = plan.explorationSeeds
      report.exploration = await MainActor.run { explorationFigures(seeds: seeds) }
      report.exploration?.asyncSeconds = await asyncExplorationSeconds()
    }
    if runs(.sampling) {
      let seeds = plan.samplingSeeds
      report.sampling = await MainActor.run { samplingFigures(seeds: seeds) }
    }
    if runs(.reduction) { report.reduction = await MainActor.run { reductionFigures() } }
    if runs(.ownership) { report.ownership = await ownershipFigures(plan) }
    if runs(.store), plan.presses > 0 { report.store = try await storeFigures(plan) }
    if runs(.time) { report.time = await timeFigures(plan) }

    let markdown = report.markdown()
    print(markdown)
    // A run of some sections would replace the whole report with those sections alone: it
    // writes only where it is told to.
    let destination =
      output ?? (quick || !only.isEmpty ? nil : "docs/benchmarks/numberfact-bench.md")
    if let destination {
      try markdown.write(toFile: destination, atomically: true, encoding: .utf8)
      log("wrote \(destination)")
    }
    let problems = report.problems()
    if !problems.isEmpty {
      for problem in problems { log("FAILED: \(problem)") }
      throw ExitCode.failure
    }
  }

  // MARK: Sections

  func determinism(_ plan: Plan) async -> [DeterminismRow] {
    var rows: [DeterminismRow] = []
    for scenario in Scenario.allCases {
      var row = DeterminismRow(scenario: scenario)
      for run in 1...plan.runs {
        for approach in Approach.allCases {
          let result = await measureDeterminism(scenario, approach, iterations: plan.iterations)
          row.runs[approach, default: []].append(result)
          log(
            "determinism: \(scenario.rawValue), \(approach.rawValue), run \(run): "
              + "\(result.failures)/\(plan.iterations) failed, "
              + Summary.format(result.microsecondsPerIteration, 1) + " µs/iteration")
        }
      }
      rows.append(row)
    }
    return rows
  }

  func recordingScale(_ plan: Plan) async throws -> (baseline: Summary, rows: [ScaleRow]) {
    var baseline: [Double] = []
    for _ in 1...plan.runs {
      baseline.append(Double(try await probeInFreshProcess(tasks: 0).peakResidentBytes))
    }
    var rows: [ScaleRow] = []
    for tasks in plan.scaleSizes {
      var probes: [ScaleProbe] = []
      for run in 1...plan.runs {
        let probe = try await probeInFreshProcess(tasks: tasks)
        probes.append(probe)
        log(
          "recording scale: \(tasks) tasks, run \(run): wait \(Summary.format(probe.waitSeconds, 3)) s, "
            + "peak \(Summary.format(megabytes(Double(probe.peakResidentBytes)), 1)) MB")
      }
      rows.append(ScaleRow(tasks: tasks, probes: probes))
    }
    return (Summary(baseline), rows)
  }

  func appRuns(_ plan: Plan) async throws -> (app: [AppRun], baseline: [AppRun]) {
    let binary = try appBinary()
    let baseline = try await cursesBaseline()
    let home = NSTemporaryDirectory() + "numberfact-bench-app-\(getpid())"
    defer {
      try? FileManager.default.removeItem(atPath: home)
      if let baseline {
        let directory = (baseline as NSString).deletingLastPathComponent
        try? FileManager.default.removeItem(atPath: directory)
      }
    }
    // Opening a store runs code that making one does not, so every timed run opens one.
    _ = try await onOwnThread {
      try driveApp(binary: binary, home: home, presses: 1, idle: .zero)
    }
    var runs: [AppRun] = []
    var baselineRuns: [AppRun] = []
    for run in 1...plan.runs {
      // Each run drives the C baseline right after the app, so both meet the same machine.
      let result = try await onOwnThread {
        try driveApp(binary: binary, home: home, presses: plan.presses, idle: plan.idle)
      }
      runs.append(result)
      if let baseline {
        let base = try await onOwnThread {
          try driveApp(binary: baseline, presses: plan.presses, idle: plan.idle)
        }
        baselineRuns.append(base)
        log(
          "the app: run \(run): C baseline first frame \(Summary.format(base.launchSeconds * 1000, 1)) ms, "
            + "peak \(Summary.format(megabytes(Double(base.peakResidentBytes)), 1)) MiB")
      }
      let latencies = result.keyLatencies
      let tenth = max(1, latencies.count / 10)
      log(
        "the app: run \(run): p50 of the first tenth of presses "
          + Summary.format(percentile(Array(latencies.prefix(tenth)), 0.5) * 1000, 2)
          + " ms, of the last tenth "
          + Summary.format(percentile(Array(latencies.suffix(tenth)), 0.5) * 1000, 2) + " ms")
      log(
        "the app: run \(run): first frame \(Summary.format(result.launchSeconds * 1000, 1)) ms, "
          + "p50 \(Summary.format(percentile(result.keyLatencies, 0.5) * 1000, 2)) ms, "
          + "idle CPU \(Summary.format(result.idleCPUSeconds, 2)) s, exit \(result.exitStatus)")
    }
    return (runs, baselineRuns)
  }

  func suiteRuns(_ plan: Plan) async throws -> [SuiteRun] {
    guard FileManager.default.fileExists(atPath: "Package.swift") else {
      throw ValidationError("Timing the suite needs the package root as the current directory.")
    }
    log("the test suite: warming the debug build: swift build --build-tests")
    let (status, output) = try await onOwnThread {
      try runCommand(["swift", "build", "--build-tests"])
    }
    guard status == 0 else {
      log(output)
      throw AppDriverError(description: "swift build --build-tests failed (\(status))")
    }
    var runs: [SuiteRun] = []
    for run in 1...plan.runs {
      let result = try await onOwnThread { try timeSuite() }
      runs.append(result)
      log(
        "the test suite: run \(run): swift test \(Summary.format(result.wallSeconds, 1)) s, exit \(result.status)"
      )
    }
    return runs
  }

  /// The app next to this executable, where `swift build` puts both.
  func appBinary() throws -> String {
    let path =
      app
      ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent().appending(path: "numberfact").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw ValidationError(
        "No app at \(path). Build it first (swift build -c release --product numberfact) "
          + "or pass --app.")
    }
    return path
  }

  /// Spawns this executable to measure one recording size, so its peak memory is its own.
  func probeInFreshProcess(tasks: Int) async throws -> ScaleProbe {
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let (status, output) = try await onOwnThread {
      try runCommand([me, "probe-scale", "--tasks", "\(tasks)"])
    }
    guard status == 0, let line = output.split(separator: "\n").last,
      let probe = try? JSONDecoder().decode(ScaleProbe.self, from: Data(line.utf8))
    else { throw AppDriverError(description: "scale probe failed (\(status)): \(output)") }
    return probe
  }
}

/// One recording-scale measurement; run by `measure` in a process of its own.
struct ScaleProbeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "probe-scale",
    abstract: "Record this many tasks and print what it cost, as JSON.",
    shouldDisplay: false)

  @Option(help: "Tasks to spawn; every tenth spawns a child.")
  var tasks: Int

  func run() async throws {
    let probe = try await runScaleProbe(tasks: tasks)
    let data = try JSONEncoder().encode(probe)
    print(String(decoding: data, as: UTF8.self))
  }
}

/// Progress, on standard error so the table on standard output stays clean.
func log(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}
