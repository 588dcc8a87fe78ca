import IssueReporting
import TaskProviding
import Testing

/// A place in a test's source, taken from the caller's `#fileID`, `#filePath`, `#line` and
/// `#column` at every public wait and scope, so an issue is reported at the test's own line
/// under Swift Testing and XCTest alike.
package struct CallSite: Sendable {
  private enum Place {
    case source(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)
    /// A test's own location, as a Swift Testing trait is given it.
    case test(Testing.SourceLocation)
  }

  private let place: Place

  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    place = .source(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  package init(_ location: Testing.SourceLocation) {
    place = .test(location)
  }

  /// The place as a source location, for an error to carry; `nil` for a test's own
  /// location, where Swift Testing already shows a thrown error.
  package var location: TaskSourceLocation? {
    guard case .source(let fileID, let filePath, let line, let column) = place else {
      return nil
    }
    return TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The place as Swift Testing takes a source location.
  package var sourceLocation: Testing.SourceLocation {
    switch place {
    case .source(let fileID, let filePath, let line, let column):
      Testing.SourceLocation(
        fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    case .test(let location): location
    }
  }

  /// The place as a person reads it: `NumberFactTests/ModelTests.swift:42`.
  package var description: String {
    switch place {
    case .source(let fileID, _, let line, _): "\(fileID):\(line)"
    case .test(let location): "\(location.fileID):\(location.line)"
    }
  }

  /// The place whole, to find the same call again: `NumberFactTests/ModelTests.swift:42:7`.
  package var key: String {
    switch place {
    case .source(let fileID, _, let line, let column): "\(fileID):\(line):\(column)"
    case .test(let location): "\(location.fileID):\(location.line):\(location.column)"
    }
  }

  /// Reports `message` at this place as a warning, which fails no test: under Swift Testing
  /// an issue of warning severity; elsewhere, a line of output.
  package func warn(_ message: String) {
    switch place {
    case .source(let fileID, let filePath, let line, let column):
      guard Test.current != nil else {
        print("warning: \(fileID):\(line): \(message)")
        return
      }
      Issue.record(
        Comment(rawValue: message), severity: .warning,
        sourceLocation: Testing.SourceLocation(
          fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
    case .test(let location):
      Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: location)
    }
  }

  /// Reports `message` as an issue at this place.
  package func report(_ message: String) {
    switch place {
    case .source(let fileID, let filePath, let line, let column):
      reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    case .test(let location):
      Issue.record(Comment(rawValue: message), sourceLocation: location)
    }
  }
}
