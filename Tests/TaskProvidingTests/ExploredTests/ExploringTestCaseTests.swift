import IssueReporting
import LockSupport
import XCTest

@testable import TaskProvidingTesting

/// A shared count whose increment reads, awaits, then writes: two at once can lose one.
private actor Tally {
  private(set) var count = 0
  private let log = TallyLog()

  func incrementLosingUpdates() async {
    let read = count
    await log.note()
    count = read + 1
  }

  func increment() async {
    count += 1
    await log.note()
  }
}

private actor TallyLog {
  private(set) var notes = 0
  func note() { notes += 1 }
}

/// A main-actor model whose taps each start a task that saves to an actor, then counts.
@MainActor private final class TapModel {
  private(set) var saved = 0
  private let tally = Tally()
  private var tasks: [Task<Void, Never>] = []

  func tap() {
    tasks.append(
      Task {
        await tally.incrementLosingUpdates()
        saved = await tally.count
      })
  }

  func settle() async {
    for task in tasks { await task.value }
  }
}

/// `ExploringTestCase`, as an XCTest test uses it: the failures its explorations report are
/// read here instead of failing the test; any other failure fails it as usual, so a schedule's
/// failure that escaped the capture fails this suite.
final class ExploringTestCaseTests: ExploringTestCase {
  private let reported = Locked<[(description: String, filePath: String, line: Int)]>([])

  override func setUp() {
    super.setUp()
    reportedFailures = { [reported] description, filePath, line in
      reported.withLock { $0.append((description, filePath, line)) }
    }
  }

  private var failures: [(description: String, filePath: String, line: Int)] {
    reported.withLock { $0 }
  }

  func testALostUpdateFailsOnceWhereItsAssertionIs() async throws {
    let runs = Locked(0)
    var line = 0
    await exploring {
      runs.withLock { $0 += 1 }
      let tally = Tally()
      async let first: Void = tally.incrementLosingUpdates()
      async let second: Void = tally.incrementLosingUpdates()
      _ = await (first, second)
      let count = await tally.count
      XCTAssertEqual(count, 2)
    }
    line = #line - 2
    XCTAssertEqual(failures.count, 1, "\(failures)")
    let failure = try XCTUnwrap(failures.first)
    XCTAssertEqual(failure.line, line)
    XCTAssertEqual(failure.filePath, #filePath)
    XCTAssertTrue(failure.description.contains("XCTAssertEqual failed"), failure.description)
    XCTAssertTrue(failure.description.contains("the test failed on schedule"))
    XCTAssertTrue(failure.description.contains("Replay it with exploring(replay: \"x2:"))
    XCTAssertTrue(failure.description.contains("Run plainly"))
    XCTAssertTrue(failure.description.contains("Steps:"))
    XCTAssertGreaterThan(runs.withLock { $0 }, 1)
  }

  func testACorrectBodyReportsNothingAndRunsUnderManySchedules() async {
    let runs = Locked(0)
    await exploring {
      runs.withLock { $0 += 1 }
      let tally = Tally()
      async let first: Void = tally.increment()
      async let second: Void = tally.increment()
      _ = await (first, second)
      let count = await tally.count
      XCTAssertEqual(count, 2)
    }
    XCTAssertTrue(failures.isEmpty, "\(failures)")
    XCTAssertGreaterThan(runs.withLock { $0 }, 1)
  }

  func testAReplayRunsTheScheduleItNames() async throws {
    let body: @Sendable () async throws -> Void = {
      let tally = Tally()
      let first = Task { await tally.incrementLosingUpdates() }
      let second = Task { await tally.incrementLosingUpdates() }
      _ = await (first.value, second.value)
      let count = await tally.count
      XCTAssertEqual(count, 2)
    }
    await exploring { try await body() }
    let found = try XCTUnwrap(failures.first?.description)
    let replay = try XCTUnwrap(found.split(separator: "\"").first { $0.hasPrefix("x2:") })
    reported.withLock { $0 = [] }
    await exploring(replay: String(replay), body)
    XCTAssertEqual(failures.count, 1)
    let replayed = try XCTUnwrap(failures.first?.description)
    XCTAssertTrue(replayed.contains("the test failed on schedule 1."), replayed)
    XCTAssertTrue(replayed.contains("XCTAssertEqual failed"), replayed)
  }

  func testAnErrorTheBodyThrowsIsTheFailure() async throws {
    struct Overcounted: Error {}
    await exploring {
      let tally = Tally()
      async let first: Void = tally.incrementLosingUpdates()
      async let second: Void = tally.incrementLosingUpdates()
      _ = await (first, second)
      if await tally.count != 2 { throw Overcounted() }
    }
    XCTAssertEqual(failures.count, 1)
    let failure = try XCTUnwrap(failures.first)
    XCTAssertTrue(failure.description.contains("The test threw Overcounted()"), failure.description)
  }

  func testAnIssueReportedThroughIssueReportingIsTheFailure() async throws {
    await exploring {
      let tally = Tally()
      async let first: Void = tally.incrementLosingUpdates()
      async let second: Void = tally.incrementLosingUpdates()
      _ = await (first, second)
      if await tally.count != 2 { reportIssue("A tap was lost") }
    }
    XCTAssertEqual(failures.count, 1)
    let failure = try XCTUnwrap(failures.first)
    XCTAssertTrue(failure.description.contains("A tap was lost"), failure.description)
  }

  /// A main-actor model, its taps each starting a task, as an app's test drives it.
  @MainActor func testAMainActorModelsTapsAreExplored() async throws {
    await exploring { @MainActor in
      let model = TapModel()
      model.tap()
      model.tap()
      await model.settle()
      XCTAssertEqual(model.saved, 2)
    }
    XCTAssertEqual(failures.count, 1)
    let failure = try XCTUnwrap(failures.first)
    XCTAssertTrue(failure.description.contains("XCTAssertEqual failed"), failure.description)
  }

  func testAFailureOutsideAnExplorationIsNotTaken() {
    let failure = XCTestFailure(
      description: "plain", filePath: #filePath, line: #line, expected: true)
    XCTAssertFalse(XCTestFailureCapture.take(failure))
  }
}
