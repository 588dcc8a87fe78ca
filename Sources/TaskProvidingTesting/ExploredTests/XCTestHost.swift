#if canImport(XCTest)
  import XCTest

  /// XCTest's side of a body that ``ExploringTestCase/exploring(_:fileID:filePath:line:column:isolation:_:)``
  /// explores: the body called with its failures taken by the schedule, and a failure
  /// recorded through the test case where each failure was.
  struct XCTestHost: ExploredTestHost {
    let name: String
    let site: CallSite
    let filePath: String
    let line: Int
    let body: @Sendable () async throws -> Void
    /// Records a failure the way XCTest would have: through the test case's own
    /// `record(_:)` or `recordFailure(…)`, past its capture.
    let record: @Sendable (_ failure: XCTestFailure) -> Void

    static var replayCall: String { "exploring" }

    func call(recordingInto issues: ScheduleIssues<XCTestFailure>) async {
      XCTestFailureCapture.underWay.withLock { $0 = issues }
      defer { XCTestFailureCapture.underWay.withLock { $0 = nil } }
      do {
        try await XCTestFailureCapture.$schedule.withValue(issues) { try await body() }
      } catch {
        issues.threw(error)
      }
    }

    func report(_ issues: ScheduleIssuesFailure<XCTestFailure>?, reason: String, story: String) {
      guard let issues, !issues.issues.isEmpty else {
        let said = issues?.thrown.map { "The test threw \($0)." } ?? reason
        record(failure(said + "\n" + story))
        return
      }
      for (index, issue) in issues.issues.enumerated() {
        record(index == 0 ? issue.adding(story) : issue)
      }
      if let thrown = issues.thrown {
        record(failure("The test threw \(thrown)."))
      }
    }

    func warn(_ text: String) {
      // XCTest has no warnings: it is said where the test's output is read.
      print("\(site.description): warning: \(text)")
    }

    /// A failure of the explored test as a whole, at the place that called for it.
    private func failure(_ description: String) -> XCTestFailure {
      #if canImport(Darwin)
        XCTestFailure(
          description: description, filePath: filePath, line: line, expected: true, issue: nil)
      #else
        XCTestFailure(description: description, filePath: filePath, line: line, expected: true)
      #endif
    }
  }

  extension XCTestFailure {
    /// The failure with `story` after its description.
    func adding(_ story: String) -> XCTestFailure {
      #if canImport(Darwin)
        var issue = issue
        issue?.compactDescription += "\n" + story
        return XCTestFailure(
          description: description + "\n" + story, filePath: filePath, line: line,
          expected: expected, issue: issue)
      #else
        XCTestFailure(
          description: description + "\n" + story, filePath: filePath, line: line,
          expected: expected)
      #endif
    }
  }
#endif
