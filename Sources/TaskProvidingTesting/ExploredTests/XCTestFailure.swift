#if canImport(XCTest)
  import LockSupport
  import XCTest

  /// A failure an XCTest test records (an `XCTAssert`, `XCTFail`, an issue reported through
  /// IssueReporting), as ``ExploringTestCase`` takes it from a schedule of its body.
  struct XCTestFailure: ExploredIssue, @unchecked Sendable {
    let description: String
    let filePath: String
    let line: Int
    /// Whether it came from an assertion rather than an uncaught exception.
    let expected: Bool
    #if canImport(Darwin)
      /// The issue as XCTest recorded it, with its call stack and attachments; Apple's XCTest
      /// records issues whole. Not sendable in its declaration, though a value, and only read
      /// again by the test that recorded it.
      let issue: XCTIssue?
    #endif

    var isFailure: Bool { true }

    var summary: String {
      let file = filePath.split(separator: "/").last.map(String.init) ?? filePath
      return "\(description) (\(file):\(line))"
    }
  }

  /// Where the failures an XCTest test records go while ``ExploringTestCase`` explores it: to
  /// the schedule that recorded them, not to XCTest.
  enum XCTestFailureCapture {
    /// The schedule whose body the current task runs, or `nil`.
    @TaskLocal static var schedule: ScheduleIssues<XCTestFailure>?
    /// The schedule under way, for a failure recorded on a thread with no task (a callback).
    static let underWay = Locked<ScheduleIssues<XCTestFailure>?>(nil)

    /// Takes `failure` into the schedule that recorded it: `false` when no schedule did, and
    /// XCTest records it as usual.
    static func take(_ failure: XCTestFailure) -> Bool {
      guard let issues = schedule ?? underWay.withLock({ $0 }) else { return false }
      // Every XCTest failure fails the test: it is the schedule's, never reported now.
      _ = issues.take(failure)
      return true
    }
  }
#endif
