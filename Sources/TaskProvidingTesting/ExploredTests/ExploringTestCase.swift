#if canImport(XCTest)
  import XCTest

  // Repeated on purpose (docs/architecture.md): the exploring and the replaying form each take the
  // same parameters and forward them to one host.

  /// An XCTest case whose tests can run their code, as written, under many schedules of the
  /// tasks it starts, with their own assertions as the checks: XCTest's form of Swift Testing's
  /// ``Testing/Trait/exploring(_:)``.
  ///
  /// Make the test case a subclass, and hand the code to explore to
  /// ``exploring(_:fileID:filePath:line:column:isolation:_:)``, as XCTest's `measure { }`
  /// takes the code it runs many times:
  ///
  /// ```swift
  /// final class CounterTests: ExploringTestCase {
  ///   func testBothTapsCount() async {
  ///     await exploring {
  ///       let counter = Counter()
  ///       async let first: Void = counter.tap()
  ///       async let second: Void = counter.tap()
  ///       _ = await (first, second)
  ///       let value = await counter.value
  ///       XCTAssertEqual(value, 2)
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// The first schedule in which the code records a failure (`XCTAssert…`, `XCTFail`, a
  /// thrown error, an issue reported through IssueReporting) is the test's failure, reported
  /// once, at each failure's line, with the schedule's steps and the string that replays it.
  /// Failures of the schedules the search ran to find and shrink it are not reported: the
  /// subclass takes them from XCTest while a schedule runs, which is why it is a subclass.
  ///
  /// XCTest runs a test method again only through `invokeTest()`, whose wait for an `async`
  /// test blocks the main thread that the explorer drives its schedules from; so the code to
  /// explore is handed over in a closure instead. `setUp()` and `tearDown()` run once around
  /// all of its schedules: state each schedule needs afresh is made inside the closure.
  open class ExploringTestCase: XCTestCase {
    /// Runs `body` under many schedules of the tasks it starts, chosen by `strategy`; the
    /// first schedule in which it records a failure is the test's.
    ///
    /// The default strategy runs every schedule of a typical unit test, up to a thousand.
    /// Returns once every call of `body` the schedules started has returned.
    public func exploring(
      _ strategy: ExplorationStrategy = .exhaustive(limit: 1_000),
      fileID: StaticString = #fileID, filePath: StaticString = #filePath,
      line: UInt = #line, column: UInt = #column,
      isolation: isolated (any Actor)? = #isolation,
      _ body: @escaping @Sendable () async throws -> Void
    ) async {
      let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
      let host = self.host(site, "\(filePath)", Int(line), body)
      await ExploredTest(host: host, strategy: strategy, replay: nil).run()
    }

    /// Runs `body` once, in the schedule `replay` names: the string a failure of
    /// ``exploring(_:fileID:filePath:line:column:isolation:_:)`` gave.
    public func exploring(
      replay: String,
      fileID: StaticString = #fileID, filePath: StaticString = #filePath,
      line: UInt = #line, column: UInt = #column,
      isolation: isolated (any Actor)? = #isolation,
      _ body: @escaping @Sendable () async throws -> Void
    ) async {
      let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
      let host = self.host(site, "\(filePath)", Int(line), body)
      await ExploredTest(host: host, strategy: .exhaustive(limit: 1_000), replay: replay).run()
    }

    private func host(
      _ site: CallSite, _ filePath: String, _ line: Int,
      _ body: @escaping @Sendable () async throws -> Void
    ) -> XCTestHost {
      XCTestHost(
        name: name, site: site, filePath: filePath, line: line, body: body, record: reporter)
    }

    /// Where the toolkit's own tests read the failures an exploration reports, instead of
    /// XCTest: each failure's description, file path and line.
    package var reportedFailures: (@Sendable (String, String, Int) -> Void)?

    /// Records a failure of an exploration the way XCTest records any: through the test
    /// case's own `record(_:)` or `recordFailure(…)`, which pass it on, since no schedule runs.
    private var reporter: @Sendable (XCTestFailure) -> Void {
      if let reportedFailures {
        return { reportedFailures($0.description, $0.filePath, $0.line) }
      }
      let testCase = UncheckedTestCase(self)
      return { testCase.value.recordAsXCTest($0) }
    }

    #if canImport(Darwin)
      // Apple's XCTest records every failure through `record(_:)`.
      open override func record(_ issue: XCTIssue) {
        let location = issue.sourceCodeContext.location
        let failure = XCTestFailure(
          description: issue.compactDescription, filePath: location?.fileURL.path ?? "",
          line: location?.lineNumber ?? 0, expected: issue.type != .uncaughtException,
          issue: issue)
        guard !XCTestFailureCapture.take(failure) else { return }
        super.record(issue)
      }

      private func recordAsXCTest(_ failure: XCTestFailure) {
        record(
          failure.issue
            ?? XCTIssue(
              type: .assertionFailure, compactDescription: failure.description,
              sourceCodeContext: XCTSourceCodeContext(
                location: XCTSourceCodeLocation(
                  filePath: failure.filePath, lineNumber: failure.line))))
      }
    #else
      // XCTest elsewhere records every failure through `recordFailure(…)`.
      open override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
        expected: Bool
      ) {
        let failure = XCTestFailure(
          description: description, filePath: filePath, line: lineNumber, expected: expected)
        guard !XCTestFailureCapture.take(failure) else { return }
        super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }

      private func recordAsXCTest(_ failure: XCTestFailure) {
        recordFailure(
          withDescription: failure.description, inFile: failure.filePath,
          atLine: failure.line, expected: failure.expected)
      }
    #endif
  }

  /// The test case, for the report of its exploration: XCTest records a failure from any
  /// thread, and the report is made once the exploration's schedules are over.
  private struct UncheckedTestCase: @unchecked Sendable {
    let value: ExploringTestCase
    init(_ value: ExploringTestCase) { self.value = value }
  }
#endif
