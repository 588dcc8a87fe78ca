/// A terminal's size in character cells.
package struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
  /// Number of rows (lines).
  package var rows: Int
  /// Number of columns (cells per line).
  package var columns: Int

  /// Creates a size; negative values count as zero.
  package init(rows: Int, columns: Int) {
    self.rows = max(0, rows)
    self.columns = max(0, columns)
  }

  package var description: String { "\(columns)×\(rows)" }
}

/// What a piece of text means on screen; each terminal decides how that looks.
package enum TextRole: Hashable, Sendable, CaseIterable {
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
package struct Span: Hashable, Sendable {
  /// The text.
  package var text: String
  /// How it should look.
  package var role: TextRole

  /// Creates a span of `text`, as the terminal is given it.
  package init(_ text: String, _ role: TextRole = .normal) {
    self.text = DisplayWidth.drawable(text)
    self.role = role
  }

  /// The number of cells the text occupies.
  package var width: Int { DisplayWidth.of(text) }
}

/// One screen line: spans left to right, together no wider than the frame.
package struct Row: Hashable, Sendable {
  /// The spans, left to right.
  package var spans: [Span]

  /// Creates a row.
  package init(_ spans: [Span] = []) {
    self.spans = spans
  }

  /// The row's text, without roles.
  package var text: String { spans.map(\.text).joined() }
}

/// A whole screen: what the view produces and a terminal draws.
package struct Frame: Hashable, Sendable {
  /// The size the frame was laid out for.
  package var size: TerminalSize
  /// Exactly `size.rows` rows.
  package var rows: [Row]

  /// Creates a frame, padding or cutting `rows` to `size.rows`.
  package init(size: TerminalSize, rows: [Row]) {
    self.size = size
    self.rows = Array(rows.prefix(size.rows))
    if self.rows.count < size.rows {
      self.rows += Array(repeating: Row(), count: size.rows - self.rows.count)
    }
  }

  /// Each row's text with trailing spaces removed: what a person reads.
  package var lines: [String] {
    rows.map { row in
      var text = row.text
      while text.last == " " { text.removeLast() }
      return text
    }
  }

  /// Whether any row contains `text`.
  package func contains(_ text: String) -> Bool {
    lines.contains { $0.contains(text) }
  }
}
