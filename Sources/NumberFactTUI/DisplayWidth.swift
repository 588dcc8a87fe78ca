/// How many terminal cells text occupies, and how to fit text into a number of cells.
///
/// East Asian wide and fullwidth characters and emoji take two cells; combining marks,
/// variation selectors and other zero-width scalars take none; everything else takes one.
/// The tables follow Unicode's East Asian Width property in the ranges terminals render
/// wide, which is what `wcwidth` reports in a UTF-8 locale.
public enum DisplayWidth {
  /// Cells taken by one character (grapheme cluster): 0, 1 or 2.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.contains(where: { $0.value == 0xFE0F }), first.properties.isEmoji {
      return 2  // emoji presentation requested
    }
    return of(first)
  }

  /// Cells taken by one scalar on its own.
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x300 { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation { return 2 }
    return wideRanges.contains { $0.contains(value) } ? 2 : 1
  }

  /// Cells taken by `text`.
  public static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + of($1) }
  }

  /// `text` cut to at most `width` cells, ending in "…" when something was cut and there
  /// is room for it.
  public static func clip(_ text: String, to width: Int) -> String {
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
  public static func wrap(_ text: String, to width: Int) -> [String] {
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

  /// `text` with each character's combining marks limited to `limit`, so stacked marks
  /// cannot spill over neighbouring lines or overflow a terminal's per-cell storage.
  public static func limitingCombiningMarks(_ text: String, to limit: Int = 2) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      let scalars = character.unicodeScalars
      guard scalars.count > limit + 1 else {
        result.append(character)
        continue
      }
      var kept = String.UnicodeScalarView()
      var marks = 0
      for scalar in scalars {
        let isMark = isStackingMark(scalar) && scalar != scalars.first
        if isMark {
          marks += 1
          if marks > limit { continue }
        }
        kept.append(scalar)
      }
      result += String(kept)
    }
    return result
  }

  /// A mark drawn on top of or below its base: what Zalgo text stacks. Variation
  /// selectors, joiners and emoji modifiers shape a character instead, so they are not
  /// limited: an emoji family keeps every member.
  private static func isStackingMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0xFE00...0xFE0F, 0xE0100...0xE01EF: return false
    default: break
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark: return true
    default: return false
    }
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
    0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
    0x1F191...0x1F19A, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
    0x1F250...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
    0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD,
    0x30000...0x3FFFD,
  ]
}
