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
    nonisolated static func cWidth(_ scalar: Unicode.Scalar) -> Int32 {
      let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
      defer { if let locale { freelocale(locale) } }
      let previous = uselocale(locale)
      defer { uselocale(previous) }
      return cn_wcwidth(wchar_t(scalar.value))
    }

    /// Every scalar a fact can contain (all that the sanitizer keeps on their own) takes the
    /// cells `wcwidth` gives it, or one for the "�" it is drawn as when the C library cannot
    /// print it; and ncurses moves on by exactly that many.
    ///
    /// The screen is the main actor's; the scalars are drawn on it a few thousand at a time,
    /// so the tests beside this one that need the main actor are not kept waiting for all of
    /// them (seconds under ThreadSanitizer).
    @Test nonisolated func everyScalarAFactCanContainTakesTheCellsNcursesGivesIt() async throws {
      let scalars = (UInt32(0x20)...0x10FFFF).compactMap { value -> Unicode.Scalar? in
        guard let scalar = Unicode.Scalar(value) else { return nil }
        let text = String(scalar)
        return FactText.sanitize(text) == text ? scalar : nil
      }
      let terminal = try await MainActor.run {
        try NcursesTerminal.offscreen(size: TerminalSize(rows: 2, columns: 16))
      }
      var disagreements: [String] = []
      for start in stride(from: 0, to: scalars.count, by: 4_096) {
        let batch = scalars[start..<min(start + 4_096, scalars.count)]
        let advances = await MainActor.run {
          batch.map { terminal.cellsAdvanced(drawing: "x" + DisplayWidth.drawable(String($0))) - 1 }
        }
        for (scalar, advance) in zip(batch, advances) {
          let c = Self.cWidth(scalar)
          let expected = c < 0 ? 1 : Int(c)
          let cells = DisplayWidth.of(scalar)
          if cells != expected || advance != cells {
            disagreements.append(
              "U+\(String(scalar.value, radix: 16, uppercase: true)): wcwidth \(c), "
                + "ours \(cells), ncurses \(advance)")
          }
        }
      }
      await MainActor.run { terminal.close() }
      #expect(scalars.count > 100_000)
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
