// Reduction: how many schedules the exhaustive search runs to cover each fixed twin of the
// catalog with no reduction, with the default one, and assuming no hidden sharing, and how
// many it runs a second under each.

import ConcurrencyBugCatalog
import IssueReporting
import TaskProvidingTesting

/// The exhaustive search's three ways of counting schedules as the same.
enum ReductionKind: String, CaseIterable, Sendable {
  case none = "no reduction"
  case certain = "where certain (default)"
  case assumed = "assuming no hidden sharing"
}

/// One fixed twin under each reduction: its schedules, whether they covered its space, and
/// how long they took.
struct ReductionRow: Sendable {
  let name: String
  let schedules: [ReductionKind: Int]
  let covered: [ReductionKind: Bool]
  let seconds: [ReductionKind: Double]

  func cell(_ kind: ReductionKind) -> String {
    let count = schedules[kind] ?? 0
    return (covered[kind] ?? false) ? "\(count)" : "\(count), not covered"
  }
}

struct ReductionFigures: Sendable {
  let rows: [ReductionRow]

  /// Schedules a second over every twin under `kind`.
  func pace(_ kind: ReductionKind) -> Double {
    let schedules = rows.map { Double($0.schedules[kind] ?? 0) }.reduce(0, +)
    let seconds = rows.map { $0.seconds[kind] ?? 0 }.reduce(0, +)
    return schedules / max(seconds, 1e-9)
  }

  func markdown() -> [String] {
    var lines = [
      "", "## Reduction", "",
      "Schedules `explore(.exhaustive())` ran on each fixed twin of the catalog (10,000 at "
        + "most): with no reduction, with the default reduction (only orders the explorer "
        + "knows cannot differ), and with `reduction: .assumingNoHiddenSharing` (jobs whose "
        + "recorded effects do not meet count as commuting). \"Not covered\": the limit "
        + "stopped it.", "",
      "| Twin | " + ReductionKind.allCases.map(\.rawValue).joined(separator: " | ") + " |",
      "|---|" + ReductionKind.allCases.map { _ in "---:|" }.joined(),
    ]
    for row in rows {
      lines.append(
        "| \(row.name) | " + ReductionKind.allCases.map(row.cell).joined(separator: " | ") + " |")
    }
    lines += ["", "Schedules per second over every twin:"]
    for kind in ReductionKind.allCases {
      lines.append("- \(kind.rawValue): \(Summary.format(pace(kind), 0))")
    }
    return lines
  }
}

/// Runs each fixed twin of the catalog exhaustively under each reduction.
@MainActor
func reductionFigures() -> ReductionFigures {
  withIssueReporters([]) {
    // Nothing in the catalog sleeps or waits for another thread: a stuck schedule is stuck.
    let outsideWait = Duration.milliseconds(20)
    let clock = ContinuousClock()
    var rows: [ReductionRow] = []
    for entry in CatalogEntry.all {
      var schedules: [ReductionKind: Int] = [:]
      var covered: [ReductionKind: Bool] = [:]
      var seconds: [ReductionKind: Double] = [:]
      for kind in ReductionKind.allCases {
        let start = clock.now
        let report =
          switch kind {
          case .none:
            exploring(
              .exhaustive(), outsideWait: outsideWait, reduces: false,
              at: CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column),
              entry.fixed)
          case .certain: explore(.exhaustive(), outsideWait: outsideWait, entry.fixed)
          case .assumed:
            explore(
              .exhaustive(reduction: .assumingNoHiddenSharing), outsideWait: outsideWait,
              entry.fixed)
          }
        seconds[kind] = (clock.now - start).seconds
        schedules[kind] = report.schedules
        covered[kind] = report.coversEverySchedule
      }
      let row = ReductionRow(
        name: entry.name, schedules: schedules, covered: covered, seconds: seconds)
      log(
        "reduction. \(entry.name): "
          + ReductionKind.allCases.map { "\($0.rawValue) \(row.cell($0))" }.joined(
            separator: ", "))
      rows.append(row)
    }
    return ReductionFigures(rows: rows)
  }
}
