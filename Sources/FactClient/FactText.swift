/// Makes text from outside (a server's answer) safe and tidy for one line of a terminal.
package enum FactText {
  /// The longest text ``sanitize(_:maximumLength:)`` returns, in characters.
  package static let maximumLength = 1_000

  /// Returns `text` with terminal escape sequences and control and format characters
  /// removed, whitespace folded to single spaces, trimmed, and capped in length.
  ///
  /// - Escape sequences (CSI, OSC, DCS and the other string controls, in 7-bit and 8-bit
  ///   form) are removed whole, so an OSC 52 clipboard write or a title change leaves no
  ///   residue, and `ESC c` cannot reset the terminal.
  /// - C0 and C1 controls, DEL, and format characters (bidi overrides, isolates and marks,
  ///   zero-width spaces, the byte-order mark) are dropped; they can reorder or hide what a
  ///   person reads. Two kinds of format character are kept where they join what is
  ///   visible: a zero-width joiner or non-joiner between two non-ASCII letters, marks or
  ///   symbols (👨‍👩‍👧‍👦 stays one family; Persian and Indic words keep their shape), and the
  ///   tag characters of a subdivision flag after its black flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
  /// - Newlines, tabs and other whitespace become one space between words.
  /// - A visible scalar keeps at most ``maximumStackedMarks`` marks drawn above or below
  ///   it, so stacked marks cannot spill over neighbouring lines.
  /// - Text over `maximumLength` characters is cut and ends with "…".
  ///
  /// Every string of a ``NumberFact`` passes through here once, when the fact is made, and
  /// every message made from an error once, when it is made: nothing later sanitizes again.
  package static func sanitize(_ text: String, maximumLength: Int = maximumLength) -> String {
    if isPlainASCII(text, maximumLength: maximumLength) { return text }
    let scalars = Array(text.unicodeScalars)
    var output = String.UnicodeScalarView()
    var index = 0
    var pendingSpace = false

    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      switch scalar.value {
      case 0x1B:
        index = skipEscape(scalars, from: index)
      case 0x9B:
        index = skipControlSequence(scalars, from: index)
      case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
        index = skipControlString(scalars, from: index)
      default:
        if scalar.properties.isWhitespace {
          pendingSpace = !output.isEmpty
        } else if isInvisible(scalar) {
          let next = index < scalars.count ? scalars[index] : nil
          // After whitespace it would join a space, once the whitespace is written.
          guard !pendingSpace, joinsVisibleText(scalar, after: output.last, before: next)
          else { continue }
          output.append(scalar)
        } else {
          if pendingSpace { output.append(" ") }
          pendingSpace = false
          output.append(scalar)
        }
      }
    }

    let result = limitingStackedMarks(String(output))
    guard maximumLength > 0, result.count > maximumLength else { return result }
    // A joiner left at the cut would join the ellipsis, which a second pass drops.
    var cut = String.UnicodeScalarView(result.prefix(maximumLength - 1).unicodeScalars)
    while let last = cut.last, last == " " || last == "\u{200C}" || last == "\u{200D}" {
      cut.removeLast()
    }
    return String(cut) + "…"
  }

  /// The most marks a visible scalar keeps above or below it.
  package static let maximumStackedMarks = 2

  /// Whether `text` is already what ``sanitize(_:maximumLength:)`` would return because it
  /// is printable ASCII, words apart by one space, short enough: most facts are, and history
  /// reads 100,000 of them.
  private static func isPlainASCII(_ text: String, maximumLength: Int) -> Bool {
    let utf8 = text.utf8
    guard maximumLength <= 0 || utf8.count <= maximumLength else { return false }
    // A native string's bytes are contiguous: one pass over them, with no iterator to step.
    return utf8.withContiguousStorageIfAvailable(isPlainASCII) ?? isPlainASCII(Array(utf8))
  }

  private static func isPlainASCII<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
    var previous: UInt8 = 0x20
    for byte in bytes {
      guard byte >= 0x20, byte < 0x7F, byte != 0x20 || previous != 0x20 else { return false }
      previous = byte
    }
    return previous != 0x20
  }

  /// `text` with the marks stacked on each visible scalar limited to
  /// ``maximumStackedMarks``.
  ///
  /// Marks are counted from the scalar they sit on, not per character: dropping a mark or a
  /// joiner can split or merge characters, so a count per character would find more to drop
  /// on a second pass. Joiners and variation selectors between marks do not start a new
  /// count, or a joiner after every two marks would stack them without end.
  private static func limitingStackedMarks(_ text: String) -> String {
    var kept = String.UnicodeScalarView()
    var marks = 0
    var dropped = false
    for scalar in text.unicodeScalars {
      if isStackingMark(scalar) {
        marks += 1
        if marks > maximumStackedMarks {
          dropped = true
          continue
        }
      } else if !isShaping(scalar) {
        marks = 0
      }
      kept.append(scalar)
    }
    return dropped ? droppingLooseJoiners(String(kept)) : String(kept)
  }

  /// A joiner or a variation selector: it shapes what is around it and bears no marks.
  private static func isShaping(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF: true
    default: false
    }
  }

  /// `text` without the joiners that no longer stand between two joinable scalars because
  /// a mark beside them was dropped: a second pass would drop them.
  private static func droppingLooseJoiners(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var output = String.UnicodeScalarView()
    for (index, scalar) in scalars.enumerated() {
      if scalar == "\u{200C}" || scalar == "\u{200D}" {
        let next = index + 1 < scalars.count ? scalars[index + 1] : nil
        guard let previous = output.last, let next, isJoinable(previous), isJoinable(next)
        else { continue }
      }
      output.append(scalar)
    }
    return String(output)
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

  /// Whether an invisible `scalar` is part of what surrounds it rather than a way to hide
  /// or reorder it.
  private static func joinsVisibleText(
    _ scalar: Unicode.Scalar, after previous: Unicode.Scalar?, before next: Unicode.Scalar?
  ) -> Bool {
    switch scalar.value {
    case 0x200C, 0x200D:  // zero-width non-joiner and joiner
      guard let previous, let next else { return false }
      return isJoinable(previous) && isJoinable(next)
    case 0xE0020...0xE007F:  // tags: only inside a flag's tag sequence
      guard let previous else { return false }
      return previous.value == 0x1F3F4 || (0xE0020...0xE007E).contains(previous.value)
    default:
      return false
    }
  }

  /// A scalar a joiner may stand next to: a non-ASCII letter, mark or symbol (emoji, their
  /// skin tones and variation selectors included). Never ASCII, where a joiner only hides.
  private static func isJoinable(_ scalar: Unicode.Scalar) -> Bool {
    guard scalar.value >= 0x80 else { return false }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .nonspacingMark, .spacingMark, .enclosingMark, .otherSymbol, .modifierSymbol:
      return true
    default:
      return false
    }
  }

  private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .surrogate, .unassigned: true
    default: false
    }
  }

  /// After ESC: skips the rest of the sequence and returns the index after it.
  private static func skipEscape(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    guard start < scalars.count else { return start }
    switch scalars[start] {
    case "[":
      return skipControlSequence(scalars, from: start + 1)
    case "]", "P", "X", "^", "_":
      return skipControlString(scalars, from: start + 1)
    default:
      // Intermediate bytes (as in `ESC ( B`), then one final byte.
      var index = start
      while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) {
        index += 1
      }
      return index < scalars.count ? index + 1 : index
    }
  }

  /// After CSI: skips parameter and intermediate bytes and the final byte.
  private static func skipControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var index = start
    while index < scalars.count, (0x20...0x3F).contains(scalars[index].value) {
      index += 1
    }
    if index < scalars.count, (0x40...0x7E).contains(scalars[index].value) {
      index += 1
    }
    return index
  }

  /// After OSC, DCS, SOS, PM or APC: skips to the string terminator (BEL, `ESC \` or ST).
  private static func skipControlString(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var index = start
    while index < scalars.count {
      switch scalars[index].value {
      case 0x07, 0x9C:
        return index + 1
      case 0x1B:
        return index + 1 < scalars.count && scalars[index + 1] == "\\" ? index + 2 : index + 1
      default:
        index += 1
      }
    }
    return index
  }
}
