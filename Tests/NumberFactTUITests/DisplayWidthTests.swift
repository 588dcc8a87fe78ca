import NumberFactTUI
import Testing

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("a", 1), ("字", 2), ("가", 2), ("Ａ", 2), ("😀", 2), ("👍🏽", 4), ("❤️", 1), ("é", 1),
    ("e\u{301}", 1), ("\u{200B}", 0), ("…", 1), ("—", 1), ("👨‍👩‍👧‍👦", 8), ("👩🏽‍💻", 6),
    ("🏳️‍🌈", 3), ("🇯🇵", 2), ("🇯🇵🇺🇦", 4), ("🏴󠁧󠁢󠁳󠁣󠁴󠁿", 2), ("日本語", 6),
  ])
  func characterWidth(text: String, width: Int) {
    #expect(DisplayWidth.of(text) == width)
  }

  @Test func clipCutsByCellsAndMarksTheCut() {
    #expect(DisplayWidth.clip("hello world", to: 8) == "hello w…")
    #expect(DisplayWidth.clip("hello", to: 5) == "hello")
    #expect(DisplayWidth.clip("字字字字", to: 5) == "字字…")
    #expect(DisplayWidth.clip("hello", to: 1) == "h")
    #expect(DisplayWidth.clip("字", to: 1) == "")
    #expect(DisplayWidth.clip("anything", to: 0) == "")
  }

  @Test func wrapBreaksAtSpacesAndInsideOverlongWords() {
    #expect(DisplayWidth.wrap("the quick brown fox", to: 10) == ["the quick", "brown fox"])
    #expect(DisplayWidth.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
    #expect(DisplayWidth.wrap("字字字 a", to: 4) == ["字字", "字 a"])
    #expect(DisplayWidth.wrap("字", to: 1) == [])
    #expect(DisplayWidth.wrap("  spaced   out  ", to: 20) == ["spaced out"])
  }

  @Test(arguments: [1, 2, 3, 5, 8, 13, 40])
  func wrappedLinesNeverExceedTheWidth(width: Int) {
    let text = "42 is 字字 the 😀 answer to e\u{301}verything, supercalifragilisticexpialidocious."
    for line in DisplayWidth.wrap(text, to: width) {
      #expect(DisplayWidth.of(line) <= width)
    }
  }

  @Test(arguments: ["👨‍👩‍👧‍👦", "👩‍❤️‍💋‍👨", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "🏳️‍🌈", "1️⃣"])
  func wrappingKeepsEmojiSequencesWhole(emoji: String) {
    let width = DisplayWidth.of(emoji) + 2
    #expect(DisplayWidth.wrap("a \(emoji) b", to: width) == ["a \(emoji)", "b"])
  }
}
