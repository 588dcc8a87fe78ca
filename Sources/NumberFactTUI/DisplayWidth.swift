import CNcurses
import Glibc

/// How many terminal cells text occupies, and how to fit text into a number of cells.
///
/// A scalar takes the cells the C library's `wcwidth` gives it in a UTF-8 locale: ncurses
/// places text by the same function, so a frame laid out here is drawn where it was laid
/// out. Text is counted scalar by scalar, as ncurses counts it, and drawn as
/// ``drawable(_:)`` makes it, so the terminal agrees too.
package enum DisplayWidth {
  /// Cells taken by one character (grapheme cluster): the sum of its scalars' cells.
  package static func of(_ character: Character) -> Int {
    character.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  /// Cells taken by one scalar on its own: `wcwidth`'s count, 0 for a control, and 1 for
  /// a scalar the C library cannot print, which is drawn as "�".
  package static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value < 0x20 ? 0 : 1 }
    if value < 0xA0 { return 0 }
    let cells = cLibraryWidth(scalar)
    return cells < 0 ? 1 : Int(cells)
  }

  /// Cells taken by `text`.
  package static func of(_ text: some StringProtocol) -> Int {
    text.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  /// Whether the C library can print `scalar` (its `wcwidth` is not -1).
  package static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0x20 && (scalar.value < 0x7F || cLibraryWidth(scalar) >= 0)
  }

  /// `text` as the terminal is given it: a scalar the C library cannot print becomes "�",
  /// and zero-width joiners go. A terminal joins what follows a joiner into one cell, while
  /// ncurses, counting by `wcwidth`, moves on by every part: a family emoji would take 2
  /// cells on the glass and 8 in ncurses, and the rest of the line would be drawn 6 cells
  /// early. Its parts, side by side, take 8 in both. Widths are the same before and after.
  package static func drawable(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where scalar.value != 0x200D {
      scalars.append(isPrintable(scalar) || scalar.value < 0x20 ? scalar : "\u{FFFD}")
    }
    return String(scalars)
  }

  /// A UTF-8 locale of the C library's, for `wcwidth` on any thread whatever the process's
  /// locale; `nil` where the C library has none, and then every scalar past ASCII is
  /// counted as one cell, as ncurses, without UTF-8, draws it as one "?".
  nonisolated(unsafe) private static let utf8Locale: locale_t? =
    newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)

  /// `wcwidth(scalar)` in ``utf8Locale``.
  private static func cLibraryWidth(_ scalar: Unicode.Scalar) -> Int32 {
    guard let utf8Locale else { return 1 }
    let previous = uselocale(utf8Locale)
    defer { uselocale(previous) }
    return cn_wcwidth(wchar_t(scalar.value))
  }

  /// `text` cut to at most `width` cells, ending in "…" when something was cut and there
  /// is room for it.
  package static func clip(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if of(text) <= width { return text }
    let room = width >= 2 ? width - 1 : width
    var result = ""
    var used = 0
    for character in text {
      let cells = of(character)
      if used + cells > room { break }
      result.append(character)
      used += cells
    }
    return width >= 2 ? result + "…" : result
  }

  /// `text` broken into lines of at most `width` cells, at spaces where possible and
  /// inside words only when a word alone is too wide.
  package static func wrap(_ text: String, to width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      let wordWidth = of(word)
      if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
        line += " " + word
        lineWidth += 1 + wordWidth
        continue
      }
      if lineWidth > 0 {
        lines.append(line)
        line = ""
        lineWidth = 0
      }
      if wordWidth <= width {
        line = String(word)
        lineWidth = wordWidth
        continue
      }
      for character in word {
        let cells = of(character)
        if cells > width { continue }  // cannot be shown at this width at all
        if lineWidth + cells > width {
          lines.append(line)
          line = ""
          lineWidth = 0
        }
        line.append(character)
        lineWidth += cells
      }
    }
    if lineWidth > 0 { lines.append(line) }
    return lines
  }
}
