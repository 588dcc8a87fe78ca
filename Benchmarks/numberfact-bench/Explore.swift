// Section 7: schedule exploration. How fast the explorer runs schedules, how many distinct
// schedules each scenario has, and how soon each strategy finds each flawed model.

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

struct ExplorationFigures: Sendable {
  let spaces: [SpaceRow]
  let flaws: [FlawRow]
  let seeds: Int
  /// Schedules per second over every exhaustive run of the real model.
  var schedulesPerSecond: Double {
    Double(spaces.map(\.schedules).reduce(0, +)) / max(spaces.map(\.seconds).reduce(0, +), 1e-9)
  }
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
      let start = clock.now
      let report = explore(.exhaustive(limit: 1_000_000)) { exploration in
        scenario.build(exploration) { client, provider in
          NumberFactFeature(numberFact: client, taskProvider: provider)
        }
      }
      let seconds = (clock.now - start).seconds
      log("7. \(scenario.rawValue): \(report.schedules) schedules in \(seconds) s")
      spaces.append(SpaceRow(scenario: scenario, schedules: report.schedules, seconds: seconds))
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
      log("7. \(flaw.rawValue): exhaustive \(exhaustive ?? -1), random \(random), PCT \(pct)")
      flaws.append(
        FlawRow(flaw: flaw, scenario: scenario, exhaustive: exhaustive, random: random, pct: pct))
    }
    return ExplorationFigures(spaces: spaces, flaws: flaws, seeds: seeds)
  }
}
