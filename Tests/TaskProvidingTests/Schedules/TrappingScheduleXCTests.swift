import ConcurrencyBugCatalog
import SuiteSupport
import TaskProvidingTesting
import XCTest

/// Under XCTest too, a schedule that traps is reported at the `explore` call's line, with the
/// runtime's message and a replay string, and the test run goes on: the exploration runs first
/// in a child process of the test binary, started on this test alone.
///
/// Each test reaching its last line is itself the proof that the run went on.
final class TrappingScheduleXCTests: XCTestCase {
  private var failures: [(description: String, file: String, line: Int)] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    failures.append((description, filePath, lineNumber))
  }

  func testAContinuationResumedTwiceIsReportedAtTheCallsLine() async throws {
    // Where no child process starts, the trap would end the test run.
    try XCTSkipUnless(
      LinuxFacilities.startChildren,
      "a trapping schedule is reported only where explorations run in a child process")
    let line = #line + 2
    let report = await explore(
      .exhaustive(), outsideWait: .milliseconds(20), CatalogEntry.continuationResumedTwice.bug)
    let failure = try XCTUnwrap(report.failure)
    XCTAssertTrue(failure.reason.hasPrefix("the schedule trapped: "), failure.reason)
    XCTAssertTrue(failure.reason.contains("SWIFT TASK CONTINUATION MISUSE"), failure.reason)
    XCTAssertTrue(failure.replay.hasPrefix("x2:"), failure.replay)
    XCTAssertFalse(failure.steps.isEmpty)
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(failures.first?.file, #filePath)
    XCTAssertTrue(failures.first?.description.contains(failure.replay) ?? false)
  }

  func testAFixedTwinPassesEverySchedule() async {
    let report = await explore(
      .exhaustive(), outsideWait: .milliseconds(20),
      CatalogEntry.continuationResumedTwice.fixed)
    XCTAssertNil(report.failure)
    XCTAssertTrue(LinuxFacilities.coversOrSaysWhy(report), report.description)
    XCTAssertTrue(failures.isEmpty, "\(failures)")
  }
}
