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

  func testAWaitTimeoutIsReportedAtTheWaitsLineOnce() async throws {
    let never = ControlledFunction<Int, Int>()
    var waitLine = 0
    do {
      try await withRecordingTaskProvider(timeout: .milliseconds(20)) { provider in
        provider.task(name: "stuck") { _ = try? await never.function(1) }
        waitLine = #line + 1
        try await provider.waitForAll(timeout: .milliseconds(20))
      }
      XCTFail("waitForAll did not throw")
    } catch {
      XCTAssertTrue(error is PendingTasksError)
    }
    // Once, at the wait; the scope does not report the same task again.
    XCTAssertEqual(failures.map(\.line), [waitLine])
    XCTAssertEqual(failures.first?.file, #filePath)
  }

  func testANextCallTimeoutIsReportedAtItsLine() async throws {
    let function = ControlledFunction<Int, Int>("upload")
    let line = #line + 1
    _ = try? await function.nextCall(timeout: .milliseconds(20))
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertTrue(failures.first?.description.contains("No upload arrived") ?? false)
  }
}
