import FactClient
import Testing

@Suite struct FactTextTests {
  @Test(arguments: [
    ("plain text", "plain text"),
    ("  padded \n\n text \t ", "padded text"),
    ("line\r\nbreaks\u{2028}and\u{85}more", "line breaks and more"),
    ("\u{1B}[2J\u{1B}[H cleared", "cleared"),
    ("\u{1B}[38;5;196mred\u{1B}[0m", "red"),
    ("\u{1B}]0;pwned title\u{07}title", "title"),
    ("\u{1B}]52;c;ZWNobyBoaQ==\u{1B}\\clipboard", "clipboard"),
    ("\u{1B}Preset\u{1B}\\dcs", "dcs"),
    ("\u{1B}creset", "reset"),
    ("\u{1B}(Bcharset", "charset"),
    ("\u{9B}31mc1 csi", "c1 csi"),
    ("\u{9D}0;title\u{9C}c1 osc", "c1 osc"),
    ("bell\u{07} null\u{00} del\u{7F}", "bell null del"),
    ("\u{202E}evil\u{202C} \u{2066}iso\u{2069}", "evil iso"),
    ("zero\u{200B}width\u{FEFF}", "zerowidth"),
    ("unterminated \u{1B}]52;c;AAAA", "unterminated"),
    ("trailing escape \u{1B}", "trailing escape"),
    ("日本語 and 😀 stay", "日本語 and 😀 stay"),
  ])
  func removesWhatCouldTrickATerminal(input: String, expected: String) {
    #expect(FactText.sanitize(input) == expected)
  }

  @Test(arguments: [
    "👨‍👩‍👧‍👦", "👩🏽‍💻", "🏳️‍🌈", "❤️‍🔥", "👩‍❤️‍💋‍👨", "🇯🇵🇺🇦", "👍🏿", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
    "می‌خواهم",  // Persian: the non-joiner keeps "mi" apart from the verb
    "क्‍ष",  // Devanagari: the joiner asks for a half form
    "日本語", "e\u{301}", "Z\u{336}\u{301}a",
  ])
  func keepsWhatJoinsVisibleTextWhole(text: String) {
    #expect(FactText.sanitize(text) == text)
    #expect(FactText.sanitize("a \(text) b") == "a \(text) b")
  }

  @Test(arguments: [
    ("pay\u{200D}pal", "paypal"),  // between ASCII a joiner only hides
    ("\u{200D}👨", "👨"), ("👨\u{200D}", "👨"), ("👨 \u{200D} 👩", "👨 👩"),
    ("👨\u{202E}\u{200D}👩", "👨\u{200D}👩"),
    ("\u{E0067}\u{E0062}tags alone", "tags alone"),
    ("a\u{200E}b\u{200F}c\u{061C}d", "abcd"),  // bidi marks
    ("soft\u{AD}hyphen\u{2060}joiner", "softhyphenjoiner"),
  ])
  func dropsJoinersAndTagsThatJoinNothing(input: String, expected: String) {
    #expect(FactText.sanitize(input) == expected)
  }

  @Test func capsTheLengthWithAnEllipsis() {
    let long = String(repeating: "word ", count: 1_000)
    let text = FactText.sanitize(long)
    #expect(text.count == FactText.maximumLength)
    #expect(text.hasSuffix("…"))
    #expect(!text.dropLast().hasSuffix(" "))
  }

  @Test func sanitizingTwiceChangesNothing() {
    let hostile = "\u{1B}[1mbold\u{1B}[0m \u{202E}x\n\ty \u{9B}5n"
    let once = FactText.sanitize(hostile)
    #expect(FactText.sanitize(once) == once)
  }

  /// Found by fuzzing: a joiner after whitespace joined the space written before the next
  /// letter, and a second pass dropped it.
  @Test func aJoinerAfterWhitespaceIsDropped() {
    let text = FactText.sanitize("\u{FFFD}\n\u{200C}\u{FFFD}")
    #expect(text == "\u{FFFD} \u{FFFD}")
    #expect(FactText.sanitize(text) == text)
  }

  /// Found by fuzzing: a cut after a joiner left it before the ellipsis, which it does not
  /// join, so a second pass dropped it.
  @Test func aJoinerAtTheCutIsDropped() {
    let text = FactText.sanitize(
      String(repeating: "é", count: 10) + "\u{200C}" + String(repeating: "é", count: 5),
      maximumLength: 11)
    #expect(text == String(repeating: "é", count: 10) + "…")
    #expect(FactText.sanitize(text, maximumLength: 11) == text)
  }

  @Test func noControlOrFormatScalarSurvivesRandomInput() {
    var generator = SplitMix64(seed: 0x5EED)
    let alphabet: [Unicode.Scalar] =
      (0...0x20).compactMap(Unicode.Scalar.init) + (0x7F...0xA0).compactMap(Unicode.Scalar.init)
      + ["[", "]", ";", "\\", "m", "a", "😀", "\u{202E}", "\u{2066}", "\u{200B}", "\u{200D}"]
    for _ in 0..<2_000 {
      let length = Int(generator.next() % 64)
      var input = String.UnicodeScalarView()
      for _ in 0..<length { input.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
      let text = FactText.sanitize(String(input))
      let output = Array(text.unicodeScalars)
      #expect(!output.contains { $0.properties.generalCategory == .control })
      // The one format scalar left is a joiner between two emoji.
      for (index, scalar) in output.enumerated() where scalar.properties.generalCategory == .format
      {
        #expect(scalar == "\u{200D}")
        #expect(index > 0 && output[index - 1] == "😀")
        #expect(index + 1 < output.count && output[index + 1] == "😀")
      }
      #expect(!text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.contains("  "))
    }
  }

  @Test(arguments: ["👨‍👩‍👧‍👦", "👩‍❤️‍💋‍👨", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "🏳️‍🌈", "1️⃣", "e\u{301}"])
  func emojiSequencesAndSingleMarksAreKept(text: String) {
    #expect(FactText.sanitize(text) == text)
  }

  @Test func stackedMarksAreLimited() {
    let zalgo = "Z" + String(repeating: "\u{0336}\u{0301}\u{0300}", count: 30) + "a"
    // Z, two marks, a
    #expect(FactText.sanitize(zalgo).unicodeScalars.count == 2 + FactText.maximumStackedMarks)
  }

  /// Joiners between marks do not start a new count: marks are limited on the scalar they
  /// sit on, however many joiners come between them.
  @Test func joinersBetweenMarksDoNotStackMore() {
    let text = "a" + String(repeating: "\u{301}\u{300}\u{200D}", count: 20) + "b"
    let clean = FactText.sanitize(text)
    let marks = clean.unicodeScalars.filter { $0.properties.generalCategory == .nonspacingMark }
    #expect(marks.count == FactText.maximumStackedMarks)
    #expect(clean.unicodeScalars.first == "a" && clean.unicodeScalars.last == "b")
    #expect(FactText.sanitize(clean) == clean)
  }

  /// Marks dropped from a character of two emoji joined, each with its own marks, leave
  /// characters a second pass would count differently: the limit counts per scalar, so a
  /// second pass drops nothing more (found by fuzzing).
  @Test(arguments: [
    "🤿\u{901}\u{A01}\u{301}\u{200D}\u{301}\u{200D}🤿\u{901}\u{A01}\u{301}\u{200D}\u{301}\u{301}m",
    "🤿\u{901}\u{A01}\u{200D}🤿\u{901}\u{A01}m",
  ])
  func aSecondPassDropsNoMoreMarks(text: String) {
    let once = FactText.sanitize(text)
    #expect(FactText.sanitize(once) == once)
    #expect(once.hasSuffix("m"))
  }

  /// A joiner beside a mark the limit drops no longer joins anything: it goes in the same
  /// pass, so a second pass changes nothing (found by fuzzing).
  @Test(arguments: [
    "\u{FFFD}\u{A01}\u{301}\u{200D}\u{311}", "\u{E9}\u{301}\u{300}\u{200D}\u{311}\u{200D}😀",
  ])
  func aJoinerBesideADroppedMarkGoesToo(text: String) {
    let once = FactText.sanitize(text)
    #expect(FactText.sanitize(once) == once)
    #expect(once.unicodeScalars.last != "\u{200D}")
  }

  /// Plain ASCII, which most facts are, comes back as it is; anything else takes the full
  /// path, and agrees with it.
  @Test(arguments: [
    "42 is the answer.", " 42", "42 ", "4  2", "42\t", "", "é",
    String(repeating: "x", count: 1_001),
  ])
  func theASCIIShortCutAgreesWithTheFullPath(text: String) {
    let clean = FactText.sanitize(text)
    #expect(!clean.hasPrefix(" ") && !clean.hasSuffix(" ") && !clean.contains("  "))
    #expect(clean.count <= FactText.maximumLength)
    #expect(FactText.sanitize(clean) == clean)
  }
}

/// A small seeded generator, so property tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
