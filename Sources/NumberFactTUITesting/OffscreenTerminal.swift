import CNcurses
import NumberFactTUI

extension NcursesTerminal {
  /// Opens ncurses on `/dev/null` at a fixed size, to check what it holds after a draw.
  ///
  /// - Parameters:
  ///   - size: The screen size ncurses is told.
  ///   - terminalName: The terminfo entry to use.
  ///   - colors: Whether to set up colours.
  /// - Throws: ``NcursesTerminal/OpenError/unknownTerminal(_:)`` when the entry does not
  ///   exist, and ``NcursesTerminal/OpenError/notFullScreen(_:)`` when it cannot move the
  ///   cursor.
  package static func offscreen(
    size: TerminalSize, terminalName: String = "xterm-256color", colors: Bool = false
  ) throws -> NcursesTerminal {
    try onDevNull(size: size, terminalName: terminalName, colors: colors)
  }

  /// How many cells ncurses moves on by to draw `text` at the start of the first row: where
  /// it would draw whatever comes next.
  package func cellsAdvanced(drawing text: String) -> Int {
    withScreen { window in
      werase(window)
      _ = mvwaddstr(window, 0, 0, text)
      return Int(cn_getcurx(window))
    }
  }

  /// The text ncurses holds in each row, for tests of what was drawn.
  package func screenLines() -> [String] {
    let size = size
    return withScreen { window in
      var lines: [String] = []
      var buffer = [wchar_t](repeating: 0, count: size.columns + 1)
      for y in 0..<size.rows {
        let count = mvwinnwstr(window, Int32(y), 0, &buffer, Int32(size.columns))
        let scalars = buffer.prefix(max(0, Int(count))).compactMap {
          Unicode.Scalar(UInt32($0))
        }
        var line = String(String.UnicodeScalarView(scalars))
        while line.last == " " { line.removeLast() }
        lines.append(line)
      }
      return lines
    }
  }
}
