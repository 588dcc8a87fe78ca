import CNcurses
import FactClient
import Glibc
import NumberFactTUI
import NumberFactTUITesting
import SuiteSupport
import Testing

extension NcursesScreenSuites {
  /// The widths the view lays text out by, against the C library's `wcwidth`, by which
  /// ncurses places text, and against where ncurses really moves on to: a frame is drawn
  /// where it was laid out, or the rest of a line lands early and leaves old text behind.
  @MainActor @Suite struct WidthAgreementTests {
    /// `wcwidth` in a UTF-8 locale, asked here on its own, not through `DisplayWidth`.
    static func cWidth(_ scalar: Unicode.Scalar) -> Int32 {
      let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
      defer { if let locale { freelocale(locale) } }
      let previous = uselocale(locale)
      defer { uselocale(previous) }
      return cn_wcwidth(wchar_t(scalar.value))
    }

    /// Every scalar a fact can contain (all that the sanitizer keeps on their own) takes the
    /// cells `wcwidth` gives it, or one for the "�" it is drawn as when the C library cannot
    /// print it; and ncurses moves on by exactly that many.
    @Test func everyScalarAFactCanContainTakesTheCellsNcursesGivesIt() async throws {
      let terminal = try NcursesTerminal.offscreen(size: TerminalSize(rows: 2, columns: 16))
      defer { terminal.close() }
      var checked = 0
      var disagreements: [String] = []
      for value in UInt32(0x20)...0x10FFFF {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let text = String(scalar)
        guard FactText.sanitize(text) == text else { continue }
        let c = Self.cWidth(scalar)
        let expected = c < 0 ? 1 : Int(c)
        let cells = DisplayWidth.of(scalar)
        let advance = terminal.cellsAdvanced(drawing: "x" + DisplayWidth.drawable(text)) - 1
        if cells != expected || advance != cells {
          disagreements.append(
            "U+\(String(value, radix: 16, uppercase: true)): wcwidth \(c), ours \(cells), "
              + "ncurses \(advance)")
        }
        // Long (seconds under ThreadSanitizer): the suite's exclusive main-actor turn keeps
        // the tests that need the main actor promptly from starting meanwhile.
        checked += 1
      }
      #expect(checked > 100_000)
      #expect(disagreements.count == 0, "\(disagreements.prefix(20))")
    }

    /// Sequences that terminals join into one cell after a joiner are drawn in their parts,
    /// whose widths ncurses and the terminal agree on; the width is the same either way.
    @Test(arguments: ["👨‍👩‍👧‍👦", "👩🏽‍💻", "🏳️‍🌈", "❤️‍🔥", "क्‍ष"])
    func joinedSequencesAreDrawnInTheirParts(text: String) throws {
      let drawn = DisplayWidth.drawable(text)
      #expect(!drawn.unicodeScalars.contains("\u{200D}"))
      #expect(DisplayWidth.of(drawn) == DisplayWidth.of(text))
      let terminal = try NcursesTerminal.offscreen(size: TerminalSize(rows: 2, columns: 16))
      defer { terminal.close() }
      #expect(terminal.cellsAdvanced(drawing: drawn) == DisplayWidth.of(text))
    }
  }
}
