// The last figure of code that sleeps: a schedule that traps, from the start of `explore` to its report.
// The exploration runs first in a child process of this program (`trap-child`), as it does in
// a test binary, so the trap ends the child and the report comes back here.

import ArgumentParser
import ConcurrencyBugCatalog
import IssueReporting
import TaskProvidingTesting

/// The catalog's continuation resumed twice, explored exhaustively on the child route: what
/// `trap-child` runs again in the child, and the parent times.
@MainActor
func exploreTheTrappingContinuation() -> ExplorationReport {
  ExplorationProcess.withChildRoute(
    exploration: "continuation resumed twice", arguments: ["trap-child"]
  ) {
    explore(
      .exhaustive(), outsideWait: .milliseconds(20), CatalogEntry.continuationResumedTwice.bug)
  }
}

/// Milliseconds from the start of `explore` to the trap's shrunk, narrated report, one per run;
/// `nil` if a run did not report the trap.
@MainActor
func trapReportMilliseconds(runs: Int) -> [Double]? {
  let clock = ContinuousClock()
  var milliseconds: [Double] = []
  for _ in 0..<runs {
    let start = clock.now
    let report = withIssueReporters([]) { exploreTheTrappingContinuation() }
    guard report.failure?.reason.contains("CONTINUATION MISUSE") == true else { return nil }
    milliseconds.append((clock.now - start).seconds * 1e3)
  }
  return milliseconds
}

/// Runs the trapping exploration again, in the child `measure` starts for it.
struct TrapChildCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trap-child",
    abstract: "Explore the trapping catalog entry, as the child of a measuring run.",
    shouldDisplay: false)

  func run() async throws {
    _ = await MainActor.run { exploreTheTrappingContinuation() }
  }
}
