import Testing

/// Swift Testing's side of a test the `exploring` trait explores: the test case's body, its
/// issues taken with Swift Testing's own `IssueHandlingTrait`, its failure recorded where
/// each issue was.
struct SwiftTestingHost: ExploredTestHost {
  let test: Test
  let testCase: Test.Case?
  /// The body Swift Testing lent the trait for the test's duration.
  let body: @Sendable () async throws -> Void

  static var replayCall: String { ".exploring" }

  var name: String { test.name }
  var site: CallSite { CallSite(test.sourceLocation) }

  func call(recordingInto issues: ScheduleIssues<Issue>) async {
    let handler = IssueHandlingTrait.compactMapIssues { issues.take($0) }
    do {
      try await handler.provideScope(for: test, testCase: testCase, performing: body)
    } catch {
      // A failed `#require` throws after it records its issue, which says it already.
      let isRequire = String(describing: type(of: error)) == "ExpectationFailedError"
      issues.threw(error, saidAlready: isRequire)
    }
  }

  func report(_ issues: ScheduleIssuesFailure<Issue>?, reason: String, story: String) {
    guard let issues, !issues.issues.isEmpty else {
      let said = issues?.thrown.map { "The test threw \($0)." } ?? reason
      Issue.record(Comment(rawValue: said + "\n" + story), sourceLocation: test.sourceLocation)
      return
    }
    for (index, issue) in issues.issues.enumerated() {
      let said = ([issue.kind.description] + issue.comments.map(\.rawValue))
        .joined(separator: ": ")
      let text = said + (index == 0 ? "\n" + story : "")
      Issue.record(
        Comment(rawValue: text), sourceLocation: issue.sourceLocation ?? test.sourceLocation)
    }
    if let thrown = issues.thrown {
      Issue.record(
        Comment(rawValue: "The test threw \(thrown)."), sourceLocation: test.sourceLocation)
    }
  }

  func warn(_ text: String) {
    Issue.record(Comment(rawValue: text), severity: .warning, sourceLocation: test.sourceLocation)
  }
}

extension Issue: ExploredIssue {
  var summary: String {
    let place = sourceLocation.map { " (\($0.fileID):\($0.line))" } ?? ""
    return kind.description + place
  }
}
