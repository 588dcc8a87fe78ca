import TaskProviding
import TaskProvidingTesting
import XCTest

/// Under XCTest, every issue the toolkit reports points at the test's own line: the scope's
/// for a leak, the wait's for a timeout. The failures are caught here and checked instead of
/// failing the test.
final class XCTestSupportTests: XCTestCase {
  private var failures: [(description: String, file: String, line: Int)] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    failures.append((description, filePath, lineNumber))
  }

  func testALeakIsReportedAtTheScopesLine() async throws {
    let never = ControlledFunction<Int, Int>()
    let line = #line + 1
    await withRecordingTaskProvider(timeout: .milliseconds(20)) { provider in
      provider.task(name: "leaked") { _ = try? await never.function(1) }
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    XCTAssertEqual(failures.first?.file, #filePath)
    XCTAssertTrue(failures.first?.description.contains("\"leaked\"") ?? false)
  }

  func testAWaitTimeoutThrowsNamingItsLineAndReportsNothing() async throws {
    let never = ControlledFunction<Int, Int>()
    var waitLine = 0
    do {
      try await withRecordingTaskProvider(timeout: .milliseconds(20)) { provider in
        provider.task(name: "stuck") { _ = try? await never.function(1) }
        waitLine = #line + 1
        try await provider.waitForAll(timeout: .milliseconds(20))
      }
      XCTFail("waitForAll did not throw")
    } catch let error as PendingTasksError {
      // XCTest on Linux shows a thrown error at `<EXPR>:0`: the message itself says where.
      XCTAssertTrue(
        error.description.contains("XCTestSupportTests.swift:\(waitLine)"), error.description)
      XCTAssertTrue(error.description.contains("\"stuck\""), error.description)
    }
    // Caught, so nothing was reported: not at the wait, not by the scope's leak check.
    XCTAssertTrue(failures.isEmpty, "\(failures)")
  }

  func testANextCallTimeoutThrowsNamingItsLineAndReportsNothing() async throws {
    let function = ControlledFunction<Int, Int>("upload")
    let line = #line + 2
    do {
      _ = try await function.nextCall(timeout: .milliseconds(20))
      XCTFail("nextCall did not throw")
    } catch {
      XCTAssertTrue(String(describing: error).contains("XCTestSupportTests.swift:\(line)"))
      XCTAssertTrue(String(describing: error).contains("No upload arrived"))
    }
    XCTAssertTrue(failures.isEmpty, "\(failures)")
  }

  func testRunNextWithNothingToThrowToReportsOnceAtItsLine() async throws {
    let provider = ManualTaskProvider()
    let line = #line + 1
    await provider.runNext()
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(failures.first?.file, #filePath)
    XCTAssertTrue(failures.first?.description.contains("no held task") ?? false)
  }
}
