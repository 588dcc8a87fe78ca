// Sampling: how many schedules each sampling strategy runs before it first fails on every
// bug of the catalog and every failure found in peer code, over many seeds, side by side.

import ConcurrencyBugCatalog
import IssueReporting
import PeerScenarios
import TaskProvidingTesting

/// The strategies that sample a space rather than walk it, in the order the figure shows.
enum Sampler: String, CaseIterable, Sendable {
  case random
  case pct = "PCT"
  case pos = "POS"
  case uniformWalk = "uniform walk"

  func strategy(seed: UInt64, schedules: Int) -> ExplorationStrategy {
    switch self {
    case .random: .random(seed: seed, schedules: schedules)
    case .pct: .pct(seed: seed, schedules: schedules)
    case .pos: .pos(seed: seed, schedules: schedules)
    case .uniformWalk: .uniformWalk(seed: seed, schedules: schedules)
    }
  }
}

/// One bug: for each sampler, the schedule of the first failure under each seed (`nil`: none
/// within the cap).
struct SamplingRow: Sendable {
  let name: String
  /// Where the bug is: the catalog, or the peer package it was found in.
  let source: String
  let cap: Int
  let found: [Sampler: [Int?]]

  /// The median over seeds, a miss counted as beyond the cap.
  func median(_ sampler: Sampler) -> Int {
    let sorted = (found[sampler] ?? []).map { $0 ?? cap + 1 }.sorted()
    return sorted.isEmpty ? cap + 1 : sorted[(sorted.count - 1) / 2]
  }

  /// `median / worst`, or how many seeds missed.
  func cell(_ sampler: Sampler) -> String {
    let runs = found[sampler] ?? []
    let misses = runs.count { $0 == nil }
    let median = median(sampler)
    let shown = median > cap ? "none" : String(median)
    if misses > 0 { return "\(shown) / \(misses) of \(runs.count) missed" }
    return "\(shown) / \(runs.compactMap(\.self).max() ?? 0)"
  }
}

struct SamplingFigures: Sendable {
  let seeds: Int
  let rows: [SamplingRow]

  /// The goal: every bug of the catalog found by PCT or a new sampler within 100 schedules,
  /// median over seeds.
  var missedGoal: [String] {
    rows.filter { $0.source == "catalog" }
      .filter { row in [Sampler.pct, .pos, .uniformWalk].allSatisfy { row.median($0) > 100 } }
      .map(\.name)
  }

  func markdown() -> [String] {
    var lines = [
      "", "## Sampling", "",
      "Schedules each sampling strategy ran until its first failure, for every bug of the "
        + "catalog (`Tests/ConcurrencyBugCatalog`, 1,000 schedules at most) and every failure "
        + "found in peer code (`Tests/PeerScenarios`, 300 at most, 100 for a scenario whose "
        + "schedules each run twenty tasks): the median and the worst over seeds 1 to "
        + "\(seeds). PCT at depth 3; POS is partial order sampling; the uniform walk weighs "
        + "each option by the steps its task took in the schedules before.", "",
      "| Bug | Where | " + Sampler.allCases.map(\.rawValue).joined(separator: " | ") + " |",
      "|---|---|" + Sampler.allCases.map { _ in "---:|" }.joined(),
    ]
    for row in rows {
      lines.append(
        "| \(row.name) | \(row.source) | "
          + Sampler.allCases.map(row.cell).joined(separator: " | ") + " |")
    }
    let catalog = rows.filter { $0.source == "catalog" }
    lines += ["", "Bugs of the catalog whose median is within 100 schedules:"]
    for sampler in Sampler.allCases {
      let within = catalog.count { $0.median(sampler) <= 100 }
      lines.append("- \(sampler.rawValue): \(within) of \(catalog.count)")
    }
    lines.append(
      "- PCT, POS or the uniform walk, whichever is best for each: "
        + "\(catalog.count - missedGoal.count) of \(catalog.count) (goal: all)")
    return lines
  }
}

/// Runs every sampler with seeds 1 to `seeds` on every bug.
@MainActor
func samplingFigures(seeds: Int) -> SamplingFigures {
  // The explorer reports each failure it finds as an issue; here they are expected.
  withIssueReporters([]) {
    // Nothing in the catalog sleeps or waits for another thread: a stuck schedule is stuck.
    let outsideWait = Duration.milliseconds(20)
    var rows: [SamplingRow] = []
    @MainActor func row(
      _ name: String, _ source: String, cap: Int, outsideWait: Duration?,
      _ scenario: @escaping @MainActor @Sendable (Exploration) async throws -> Void
    ) {
      var found: [Sampler: [Int?]] = [:]
      for sampler in Sampler.allCases {
        var firsts: [Int?] = []
        for seed in 1...max(seeds, 1) {
          let report = explore(
            sampler.strategy(seed: UInt64(seed), schedules: cap), outsideWait: outsideWait,
            scenario)
          firsts.append(report.failure?.scheduleNumber)
        }
        found[sampler] = firsts
      }
      let made = SamplingRow(name: name, source: source, cap: cap, found: found)
      log(
        "sampling. \(name): "
          + Sampler.allCases.map { "\($0.rawValue) \(made.cell($0))" }.joined(separator: ", "))
      rows.append(made)
    }
    for entry in CatalogEntry.all {
      row(entry.name, "catalog", cap: 1_000, outsideWait: outsideWait, entry.bug)
    }
    for failure in PeerFailure.all {
      row(
        failure.name, failure.package, cap: failure.isCostly ? 100 : 300, outsideWait: nil,
        failure.scenario)
    }
    return SamplingFigures(seeds: seeds, rows: rows)
  }
}
