/// A place in source code: where a task was spawned, or where a test waited.
///
/// ## The source-location parameters
///
/// Every call form of ``TaskProvider`` and every wait, scope and check of the testing module
/// ends its parameters with `fileID`, `filePath`, `line` and `column`. They default to
/// `#fileID`, `#filePath`, `#line` and `#column`, the caller's position, and are gathered
/// into a `TaskSourceLocation`:
/// - A spawn keeps it in its record, so a leak names the line that spawned the task.
/// - A wait that gives up throws an error that carries it and names it in its description,
///   because XCTest on Linux shows a thrown error at `<EXPR>:0`.
/// - A check with no caller to throw to reports its issue there, so it appears on the test's
///   own line under Swift Testing and XCTest alike.
///
/// Pass them on only from a helper of your own that takes the same four parameters, so a
/// failure points at the helper's caller rather than at the helper. The type holds static
/// strings only, so passing it costs no allocation on the live path.
public struct TaskSourceLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file that spawned the task, as `Module/File.swift`.
  public let fileID: StaticString
  /// The full path of the file that spawned the task.
  public let filePath: StaticString
  /// The line of the spawn.
  public let line: UInt
  /// The column of the spawn.
  public let column: UInt

  /// Creates a location; the defaults capture the caller's position.
  public init(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `Module/File.swift:line`.
  public var description: String { "\(fileID):\(line)" }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.line == rhs.line && lhs.column == rhs.column
      && "\(lhs.fileID)" == "\(rhs.fileID)" && "\(lhs.filePath)" == "\(rhs.filePath)"
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine("\(fileID)")
    hasher.combine(line)
    hasher.combine(column)
  }
}
