// How fast the explorer runs schedules, how many distinct
// schedules each scenario has, how soon each strategy finds each flawed model, and the same
// for the catalog of classic concurrency bugs, with the order of ready jobs a choice.

import ConcurrencyBugCatalog
import ExplorationScenarios
import IssueReporting
import NumberFactCore
import TaskProvidingTesting

/// One scenario's whole schedule space on the real model.
struct SpaceRow: Sendable {
  let scenario: ExplorationScenario
  let schedules: Int
  let seconds: Double
}

/// How soon each strategy found one flaw.
struct FlawRow: Sendable {
  let flaw: FlawedFeature.Flaw
  let scenario: ExplorationScenario
  /// The first failing schedule's number, exhaustively: the same every run.
  let exhaustive: Int?
  /// Schedules until the first failure, one per seed.
  let random: [Int]
  let pct: [Int]
}

/// One catalog entry: its fixed twin's bounded space, and how soon each strategy finds the
/// bug.
struct CatalogRow: Sendable {
  let name: String
  /// Distinct schedules of the fixed twin within the default bound, and how long they took.
  let twinSchedules: Int
  let twinSeconds: Double
  /// Whether the bound left orders of the twin's jobs out.
  let twinBoundLeftOut: Bool
  /// The same search of the twin without sleep sets: schedules, and whether it ran to the
  /// end of its space.
  let twinUnreduced: Int
  let twinUnreducedComplete: Bool
  /// Time from the start of the exhaustive search on the bug to its shrunk, narrated report.
  let bugSeconds: Double
  /// The exhaustive search's first failing schedule on the bug.
  let exhaustive: Int?
  /// How many departures from enqueue order the shrunk failure needs.
  let departures: Int?
  /// PCT: schedules until the first failure, one per seed (`nil`: none within 100).
  let pct: [Int?]
}

struct ExplorationFigures: Sendable {
  let spaces: [SpaceRow]
  /// The same spaces through the `async` `explore`, which gives the main actor back between
  /// schedules: seconds for all of their schedules (the sum of each scenario's median of 11).
  var asyncSeconds: Double?
  let flaws: [FlawRow]
  let catalog: [CatalogRow]
  let seeds: Int
  /// Schedules per second over the catalog's fixed twins.
  var catalogSchedulesPerSecond: Double {
    Double(catalog.map(\.twinSchedules).reduce(0, +))
      / max(catalog.map(\.twinSeconds).reduce(0, +), 1e-9)
  }
  /// Schedules per second over every exhaustive run of the real model.
  var schedulesPerSecond: Double {
    Double(spaces.map(\.schedules).reduce(0, +)) / max(spaces.map(\.seconds).reduce(0, +), 1e-9)
  }
}

/// Seconds for every schedule of every scenario through the `async` `explore`, measured as
/// the synchronous form's spaces are: one warm-up run, then the median of eleven.
@MainActor
func asyncExplorationSeconds() async -> Double {
  let clock = ContinuousClock()
  var total = 0.0
  for scenario in ExplorationScenario.allCases {
    func space() async -> Double {
      let start = clock.now
      await explore(.exhaustive(limit: 100_000, departures: 1)) { exploration in
        scenario.build(exploration) { client, provider in
          NumberFactFeature(numberFact: client, taskProvider: provider)
        }
      }
      return (clock.now - start).seconds
    }
    _ = await space()
    var runs: [Double] = []
    for _ in 0..<11 { runs.append(await space()) }
    let seconds = runs.sorted()[runs.count / 2]
    log("exploration: \(scenario.rawValue), async explore: \(seconds) s (median of 11)")
    total += seconds
  }
  return total
}

/// The flaws, each with the scenario that shows it.
let flawScenarios: [(FlawedFeature.Flaw, ExplorationScenario)] = [
  (.staleAnswerWrites, .tapIncrementTap),
  (.supersededRequestClearsLoading, .tapTwice),
  (.kindChangeKeepsTheRequest, .kindWhileLoading),
]

@MainActor
func explorationFigures(seeds: Int) -> ExplorationFigures {
  // The explorer reports each failure it finds as an issue; here they are expected.
  withIssueReporters([]) {
    let clock = ContinuousClock()
    var spaces: [SpaceRow] = []
    for scenario in ExplorationScenario.allCases {
      @MainActor func space() -> (schedules: Int, seconds: Double) {
        let start = clock.now
        // The space ExplorationTests asserts: one departure while a job is ready.
        let report = explore(.exhaustive(limit: 100_000, departures: 1)) { exploration in
          scenario.build(exploration) { client, provider in
            NumberFactFeature(numberFact: client, taskProvider: provider)
          }
        }
        return (report.schedules, (clock.now - start).seconds)
      }
      // One run to warm up (the first symbol lookups, the first allocations of each size),
      // then the median of eleven: the figure is the explorer's steady pace, and a run slowed
      // by the machine (a neighbour on a shared host) moves it little.
      _ = space()
      let runs = (0..<11).map { _ in space() }
      let seconds = runs.map(\.seconds).sorted()[runs.count / 2]
      let schedules = runs[0].schedules
      log(
        "exploration: \(scenario.rawValue): \(schedules) schedules in \(seconds) s (median of 11)")
      spaces.append(SpaceRow(scenario: scenario, schedules: schedules, seconds: seconds))
    }
    var flaws: [FlawRow] = []
    for (flaw, scenario) in flawScenarios {
      let build: @MainActor (Exploration) async throws -> Void = { exploration in
        scenario.build(exploration) { client, provider in
          FlawedFeature(flaw: flaw, numberFact: client, taskProvider: provider)
        }
      }
      let exhaustive = explore(.exhaustive(limit: 1_000_000), build).failure?.scheduleNumber
      let random = (1...seeds).map { seed in
        explore(.random(seed: UInt64(seed), schedules: 100_000), build).failure?
          .scheduleNumber ?? 100_000
      }
      let pct = (1...seeds).map { seed in
        explore(.pct(seed: UInt64(seed), schedules: 100_000, depth: 3), build).failure?
          .scheduleNumber ?? 100_000
      }
      log(
        "exploration: \(flaw.rawValue): exhaustive \(exhaustive ?? -1), random \(random), PCT \(pct)"
      )
      flaws.append(
        FlawRow(flaw: flaw, scenario: scenario, exhaustive: exhaustive, random: random, pct: pct))
    }
    var catalog: [CatalogRow] = []
    // Nothing in the catalog sleeps or waits for another thread: a stuck schedule is stuck.
    let outsideWait = Duration.milliseconds(20)
    for entry in CatalogEntry.all {
      let start = clock.now
      let twin = explore(.exhaustive(), outsideWait: outsideWait, entry.fixed)
      let seconds = (clock.now - start).seconds
      let unreduced = exploring(
        .exhaustive(), outsideWait: outsideWait, reduces: false,
        at: CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column),
        entry.fixed)
      let bugStart = clock.now
      let bug = explore(.exhaustive(), outsideWait: outsideWait, entry.bug)
      let bugSeconds = (clock.now - bugStart).seconds
      let pct = (1...seeds).map { seed in
        explore(.pct(seed: UInt64(seed), schedules: 100), outsideWait: outsideWait, entry.bug)
          .failure?.scheduleNumber
      }
      log(
        "exploration: \(entry.name): twin \(twin.schedules) schedules in \(seconds) s "
          + "(\(unreduced.schedules) without sleep sets), bug found at "
          + "\(bug.failure?.scheduleNumber ?? -1) and reported in \(bugSeconds) s, PCT "
          + pct.map { $0.map(String.init) ?? "none" }.joined(separator: ", "))
      catalog.append(
        CatalogRow(
          name: entry.name, twinSchedules: twin.schedules, twinSeconds: seconds,
          twinBoundLeftOut: twin.boundLeftSchedulesOut, twinUnreduced: unreduced.schedules,
          twinUnreducedComplete: unreduced.coversEverySchedule, bugSeconds: bugSeconds,
          exhaustive: bug.failure?.scheduleNumber,
          departures: bug.failure?.departures, pct: pct))
    }
    return ExplorationFigures(spaces: spaces, flaws: flaws, catalog: catalog, seeds: seeds)
  }
}

extension Report {
  func explorationSection() -> [String] {
    guard let exploration else { return [] }
    var lines = [
      "", "## Schedule exploration", "",
      "`explore(_:)` on the feature's scenarios (ExplorationTests): every schedule of each, "
        + "on the real model, then how soon each strategy finds each flawed copy. A schedule "
        + "is one order of the person's actions, the fact requests' answers or failures, and "
        + "the scenario's ready jobs (each task's start among them) wherever more than one is "
        + "ready, with at most one departure from enqueue order while a job is ready (the "
        + "space ExplorationTests asserts).", "",
      "| Scenario | Distinct schedules | Seconds, all of them (median of 11) | Schedules per second |",
      "|---|---:|---:|---:|",
    ]
    for row in exploration.spaces {
      let pace = Double(row.schedules) / max(row.seconds, 1e-9)
      lines.append(
        "| \(row.scenario.rawValue) | \(row.schedules) | \(Summary.format(row.seconds, 4)) | "
          + "\(Summary.format(pace, 0)) |")
    }
    let pace = exploration.schedulesPerSecond
    lines += [
      "",
      "Schedules per second over them all, after one warm-up run of each: "
        + "**\(Summary.format(pace, 0))** (goal: 10,000 or more: "
        + (pace >= 10_000 ? "met" : "not met") + ")."
        + (exploration.asyncSeconds.map { seconds in
          " Through the `async` `explore`, which gives the main actor back between schedules "
            + "(a turn of a few milliseconds), the same schedules run at **"
            + Summary.format(
              Double(exploration.spaces.map(\.schedules).reduce(0, +)) / max(seconds, 1e-9), 0)
            + "** per second."
        } ?? ""), "",
      "Schedules run until the first failure (median of \(exploration.seeds) seeds for random "
        + "and PCT, depth 3; exhaustive is depth first and the same every time):", "",
      "| Flawed model | Scenario | Exhaustive | Random | PCT |", "|---|---|---:|---:|---:|",
    ]
    for row in exploration.flaws {
      let random = Summary(row.random.map(Double.init)).formatted(0)
      let pct = Summary(row.pct.map(Double.init)).formatted(0)
      lines.append(
        "| \(row.flaw.rawValue) | \(row.scenario.rawValue) | "
          + "\(row.exhaustive.map(String.init) ?? "not found") | \(random) | \(pct) |")
    }
    guard !exploration.catalog.isEmpty else { return lines }
    lines += [
      "", "### The catalog of classic bugs", "",
      "`Tests/ConcurrencyBugCatalog`: each bug in plain Swift and its fixed twin. For the twin, "
        + "`explore(.exhaustive())` with its default arguments (rounds of a growing bound on "
        + "departures from enqueue order, sleep sets on), how long it took, and the same search "
        + "with sleep sets off (\"(all)\": every schedule of the space was run); for the bug, the "
        + "exhaustive search's first failing schedule, the time from the start of `explore` to "
        + "its shrunk, narrated report, how many departures the shrunk failure needs, and PCT's "
        + "schedules until the first failure under \(exploration.seeds) seeds (100 at most).", "",
      "| Bug | Twin: schedules | Twin: ms | Twin without sleep sets | Bug: exhaustive | "
        + "Bug: found and narrated, ms | Departures | Bug: PCT |",
      "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in exploration.catalog {
      let pct = row.pct.map { $0.map(String.init) ?? "none" }.joined(separator: ", ")
      lines.append(
        "| \(row.name) | \(row.twinSchedules)\(row.twinBoundLeftOut ? "" : " (all)") | "
          + "\(Summary.format(row.twinSeconds * 1_000, 2)) | "
          + "\(row.twinUnreduced)\(row.twinUnreducedComplete ? " (all)" : "") | "
          + "\(row.exhaustive.map(String.init) ?? "not found") | "
          + "\(Summary.format(row.bugSeconds * 1_000, 1)) | "
          + "\(row.departures.map(String.init) ?? "–") | \(pct) |")
    }
    lines += [
      "",
      "Schedules per second over the twins: "
        + "**\(Summary.format(exploration.catalogSchedulesPerSecond, 0))** (goal: 10,000 or "
        + "more: \(exploration.catalogSchedulesPerSecond >= 10_000 ? "met" : "not met")). The "
        + "time to find and narrate a bug is mostly the narration: each step's source line is read "
        + "from the binary's line tables, tens of milliseconds a line.",
      "",
      "How soon each sampler (random, PCT, partial order sampling, the uniform walk) finds "
        + "every bug of the catalog and every failure found in peer code, over twenty seeds, "
        + "and how many schedules cover each twin with and without each reduction: "
        + "[benchmarks/sampling.md](docs/benchmarks/sampling.md).",
    ]
    return lines
  }
}
