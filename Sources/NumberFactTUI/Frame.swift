/// A terminal's size in character cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
  /// Number of rows (lines).
  public var rows: Int
  /// Number of columns (cells per line).
  public var columns: Int

  /// Creates a size; negative values count as zero.
  public init(rows: Int, columns: Int) {
    self.rows = max(0, rows)
    self.columns = max(0, columns)
  }

  public var description: String { "\(columns)×\(rows)" }
}

/// What a piece of text means on screen; each terminal decides how that looks.
public enum TextRole: Hashable, Sendable, CaseIterable {
  /// Ordinary text.
  case normal
  /// The title bar.
  case title
  /// The count, the thing the app is about.
  case count
  /// An error message.
  case error
  /// Key hints and other secondary text.
  case hint
  /// Where a fact came from.
  case source
}

/// A run of text in one role. Its text holds no control characters, and is what the
/// terminal is given (``DisplayWidth/drawable(_:)``).
public struct Span: Hashable, Sendable {
  /// The text.
  public var text: String
  /// How it should look.
  public var role: TextRole

  /// Creates a span of `text`, as the terminal is given it.
  public init(_ text: String, _ role: TextRole = .normal) {
    self.text = DisplayWidth.drawable(text)
    self.role = role
  }

  /// The number of cells the text occupies.
  public var width: Int { DisplayWidth.of(text) }
}

/// One screen line: spans left to right, together no wider than the frame.
public struct Row: Hashable, Sendable {
  /// The spans, left to right.
  public var spans: [Span]

  /// Creates a row.
  public init(_ spans: [Span] = []) {
    self.spans = spans
  }

  /// The row's text, without roles.
  public var text: String { spans.map(\.text).joined() }
}

/// A whole screen: what the view produces and a terminal draws.
public struct Frame: Hashable, Sendable {
  /// The size the frame was laid out for.
  public var size: TerminalSize
  /// Exactly `size.rows` rows.
  public var rows: [Row]

  /// Creates a frame, padding or cutting `rows` to `size.rows`.
  public init(size: TerminalSize, rows: [Row]) {
    self.size = size
    self.rows = Array(rows.prefix(size.rows))
    if self.rows.count < size.rows {
      self.rows += Array(repeating: Row(), count: size.rows - self.rows.count)
    }
  }

  /// Each row's text with trailing spaces removed: what a person reads.
  public var lines: [String] {
    rows.map { row in
      var text = row.text
      while text.last == " " { text.removeLast() }
      return text
    }
  }

  /// Whether any row contains `text`.
  public func contains(_ text: String) -> Bool {
    lines.contains { $0.contains(text) }
  }
}
