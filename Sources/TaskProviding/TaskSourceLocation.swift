/// The place in source code where a task was spawned.
///
/// ``TaskProvider`` call forms fill it in from `#fileID`, `#filePath`, `#line` and `#column`
/// at the call site, so a provider can say where a task came from. It holds static strings
/// only, so passing it costs no allocation on the live path.
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
