import Foundation
import NumberFactCore
import NumberFactTUI
import SuiteSupport
import Testing

@Suite(.computeThread) struct FactViewTests {
  enum Screen: String, CaseIterable, CustomTestStringConvertible {
    case idle, loading, fact, longFact, wideFact, error, hostileFact, help, extremeCount
    case prompt, history

    var testDescription: String { rawValue }

    var state: ViewState {
      var feature = NumberFactFeature.State(count: 42)
      var help = false
      var prompt: NumberPrompt?
      var position: HistoryPosition?
      switch self {
      case .idle: break
      case .loading: feature.isLoading = true
      case .fact:
        feature.fact = NumberFact(
          number: 42, kind: .trivia, text: "42 is the answer.", host: "numbersapi.com")
      case .longFact:
        feature.fact = NumberFact(
          number: 42, kind: .trivia,
          text: (1...120).map { "word\($0)" }.joined(separator: " "))
      case .wideFact:
        feature.fact = NumberFact(
          number: 42, kind: .trivia, text: "四十二は答えです 😀👍🏽 ❤️ and more text 字字字字字字字字字字")
      case .error:
        feature.errorMessage = "The fact server answered HTTP 503 (Service Unavailable)."
      case .hostileFact:
        feature.fact = NumberFact(
          number: 42, kind: .trivia, text: "\u{1B}[2J\u{1B}]0;owned\u{07}clean\u{0}\r\ntext")
      case .help: help = true
      case .extremeCount: feature.count = .min
      case .prompt:
        prompt = NumberPrompt("-1729")
        _ = prompt?.handle(.character("x"))
      case .history:
        feature.fact = NumberFact(number: 42, kind: .trivia, text: "42 is the answer.")
        position = HistoryPosition(number: 3, of: 7)
      }
      return ViewState(
        feature: feature, showsHelp: help, prompt: prompt, historyPosition: position)
    }
  }

  static let sizes = [
    TerminalSize(rows: 24, columns: 80), TerminalSize(rows: 10, columns: 40),
    TerminalSize(rows: 5, columns: 20), TerminalSize(rows: 1, columns: 1),
  ]

  @Test(arguments: Screen.allCases, sizes)
  func everyRowFitsAndTheCountLeads(screen: Screen, size: TerminalSize) {
    let state = screen.state
    let frame = FactView.frame(for: state, size: size)
    #expect(frame.rows.count == size.rows)
    for row in frame.rows {
      #expect(DisplayWidth.of(row.text) <= size.columns, "\(row.text)")
      #expect(!row.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }
    // The number being typed stands where the count was.
    let count = state.prompt.map(\.text) ?? String(state.feature.count)
    #expect(frame.contains(String(count.prefix(size.columns == 1 ? 1 : 10))))
  }

  @Test(arguments: [Screen.fact, .longFact, .wideFact, .error])
  func smallTerminalShowsTheCountAndTheStartOfTheBody(screen: Screen) {
    let frame = FactView.frame(for: screen.state, size: TerminalSize(rows: 5, columns: 20))
    #expect(frame.lines[0].hasPrefix("42"))
    let body = screen.state.feature.fact?.text ?? "Error:"
    let start = String(body.prefix(2))
    #expect(frame.lines[1].hasPrefix(start))
  }

  @Test func aFactTheServerDidNotFindIsMarked() {
    var state = Screen.fact.state
    state.feature.fact?.found = false
    let frame = FactView.frame(for: state, size: TerminalSize(rows: 12, columns: 80))
    #expect(frame.lines.contains("  — from numbersapi.com (no fact known about 42; a stand-in)"))
    #expect(
      !FactView.frame(for: Screen.fact.state, size: TerminalSize(rows: 12, columns: 80))
        .lines.joined().contains("stand-in"))
  }

  @Test func anOfflineFactSaysWhy() {
    var state = Screen.fact.state
    state.feature.fact?.source = .offline
    state.feature.fact?.offlineReason = "numbersapi.com did not answer in 5 s"
    let frame = FactView.frame(for: state, size: TerminalSize(rows: 12, columns: 80))
    #expect(frame.lines.contains("  — offline: numbersapi.com did not answer in 5 s"))
  }

  /// Every width from 1 to 300, each screen, a few heights: every row fits, the count (or
  /// its first digit) leads, and the full layout's key bar keeps the way out.
  @Test(arguments: Screen.allCases)
  func everyWidthLaysOutWithinItself(screen: Screen) {
    for width in 1...300 {
      for height in [1, 2, 5, 9, 24] {
        let size = TerminalSize(rows: height, columns: width)
        let frame = FactView.frame(for: screen.state, size: size)
        #expect(frame.rows.count <= height)
        for line in frame.lines {
          #expect(DisplayWidth.of(line) <= width, "\(screen) at \(width)×\(height): \(line)")
        }
        let full =
          height >= FactView.fullLayoutSize.rows && width >= FactView.fullLayoutSize.columns
        if full {
          // However narrow, the key bar keeps the way out of what is on screen.
          let bar = frame.lines.last ?? ""
          let wayOut = screen.state.prompt != nil ? "Esc" : "q"
          #expect(bar.contains(wayOut), "\(width)×\(height): \(bar)")
        } else if screen.state.prompt == nil {
          #expect(frame.lines.first?.first == String(screen.state.feature.count).first)
        }
      }
    }
  }

  @Test func aTinyTerminalShowsTheCountsFirstDigit() {
    let frame = FactView.frame(for: Screen.fact.state, size: TerminalSize(rows: 1, columns: 1))
    #expect(frame.lines == ["4"])
  }

  @Test(arguments: [(80, 0), (70, 1), (50, 2), (30, 3), (20, 4), (5, 5)])
  func theKeyBarShortensWithTheWidth(width: Int, variant: Int) {
    let state = Screen.fact.state
    #expect(
      FactView.hints(for: state, width: width) == FactView.hintVariants(for: state)[variant])
  }

  /// The bars come from the key table: each context's widest names its keys in table order,
  /// and the narrowest keeps a way out.
  @Test func eachKeyBarIsReadFromTheKeyTable() {
    #expect(
      KeyBindings.hintVariants(in: .counter) == [
        "+/- count  0-9 go to  f fact  r random  ←/→ history  t kind  ? help  q quit",
        "+/- count  f fact  r random  ←/→ history  t kind  ? help  q quit",
        "+/- count  f fact  t kind  ? help  q quit", "f fact  ? help  q quit", "? help  q quit",
        "? q",
      ])
    #expect(
      KeyBindings.hintVariants(in: .loading) == [
        "+/- count  c cancel  t kind  ? help  q quit", "c cancel  t kind  ? help  q quit",
        "c cancel  ? help  q quit", "c cancel  q quit", "c q",
      ])
    #expect(KeyBindings.hintVariants(in: .help) == ["? or Esc close help  q quit", "? q"])
    #expect(
      KeyBindings.hintVariants(in: .prompt) == [
        "Enter go  Esc cancel  - negative  Backspace erase", "Enter go  Esc cancel  - negative",
        "Enter go  Esc cancel", "Enter Esc",
      ])
  }

  @Test func theNumberPromptReplacesTheCountAndSaysHowToUseIt() {
    var state = Screen.fact.state
    var prompt = NumberPrompt("172")
    _ = prompt.handle(.character("x"))
    state.prompt = prompt
    let frame = FactView.frame(for: state, size: TerminalSize(rows: 12, columns: 80))
    #expect(frame.lines[2] == "  Go to  172_")
    let text = frame.lines.joined(separator: " ")
    #expect(text.contains("Enter to go there"))
    #expect(text.contains("Only digits, and - for a negative number."))
  }

  @Test func theHistoryPositionIsShownWithTheFact() {
    var state = Screen.fact.state
    state.historyPosition = HistoryPosition(number: 3, of: 7)
    let frame = FactView.frame(for: state, size: TerminalSize(rows: 12, columns: 80))
    #expect(frame.lines.contains("  — from numbersapi.com · 3 of 7"))
  }

  @Test func fullLayoutOfAFact() {
    let frame = FactView.frame(
      for: Screen.fact.state, size: TerminalSize(rows: 12, columns: 50))
    #expect(
      frame.lines == [
        " numberfact                                trivia",
        "",
        "  Count  42",
        "  Kind   trivia",
        "",
        "  42 is the answer.",
        "",
        "  — from numbersapi.com",
        "",
        "",
        "",
        " +/- count  f fact  t kind  ? help  q quit",
      ])
    #expect(frame.rows[0].spans.map(\.role) == [.title])
    #expect(frame.rows[2].spans.map(\.role) == [.normal, .count])
  }

  @Test func loadingShowsTheSpinnerFrame() {
    var state = Screen.loading.state
    for (index, glyph) in FactView.spinner.enumerated() {
      state.spinnerFrame = index + FactView.spinner.count * 3
      let frame = FactView.frame(for: state, size: TerminalSize(rows: 24, columns: 80))
      #expect(frame.lines[5] == "  \(glyph) Fetching a trivia fact about 42…")
    }
  }

  @Test func errorIsInTheErrorRole() {
    let frame = FactView.frame(for: Screen.error.state, size: TerminalSize(rows: 24, columns: 80))
    #expect(frame.lines[5].hasPrefix("  Error: The fact server answered HTTP 503"))
    #expect(frame.rows[5].spans.last?.role == .error)
  }

  @Test func hostileTextIsCleaned() {
    let frame = FactView.frame(
      for: Screen.hostileFact.state, size: TerminalSize(rows: 24, columns: 80))
    #expect(frame.lines[5] == "  clean text")
  }

  @Test func helpListsEveryKey() {
    let frame = FactView.frame(for: Screen.help.state, size: TerminalSize(rows: 24, columns: 80))
    #expect(frame.contains("q Ctrl-C       quit"))
    #expect(frame.contains("f Enter Space  get a fact"))
  }

  @Test func offlineFactSaysSo() {
    var state = Screen.fact.state
    state.feature.fact?.source = .offline
    let frame = FactView.frame(for: state, size: TerminalSize(rows: 24, columns: 80))
    #expect(frame.contains("— offline fact, computed on this machine"))
  }

  @Test func emptySizeDrawsNothing() {
    let frame = FactView.frame(for: Screen.fact.state, size: TerminalSize(rows: 0, columns: 0))
    #expect(frame.rows.isEmpty)
  }

  @Test func aStoreThatCannotBeUsedIsSaidUnderTheFactButNotInHelpOrThePrompt() {
    var state = Screen.fact.state
    state.feature.storeMessage = "The store /x/store.sqlite cannot be written."
    let size = TerminalSize(rows: 24, columns: 80)
    let lines = FactView.frame(for: state, size: size).lines
    #expect(lines.contains { $0.contains("42 is the answer.") })
    #expect(lines.contains { $0.contains("The store /x/store.sqlite cannot be written.") })
    state.showsHelp = true
    #expect(!FactView.frame(for: state, size: size).lines.contains { $0.contains("/x/store") })
  }

  /// The view never reads the clock: a stored fact's age is told against the state's `now`,
  /// so the same state draws the same frame whenever it is drawn.
  @Test func aStoredFactsAgeIsToldAgainstTheStatesTimeNotTheClock() {
    let seen = Date(timeIntervalSince1970: 1_700_000_000)
    var state = ViewState(
      feature: .init(
        count: 42,
        fact: NumberFact(
          number: 42, kind: .trivia, text: "42 is the answer.", source: .stored,
          host: "numbersapi.com", seen: seen)),
      now: seen.addingTimeInterval(3 * 86_400))
    let size = TerminalSize(rows: 24, columns: 80)
    let first = FactView.frame(for: state, size: size)
    #expect(first.contains("— seen 3 days ago, from numbersapi.com"))
    #expect(FactView.frame(for: state, size: size) == first)
    state.now = nil
    #expect(FactView.frame(for: state, size: size).contains("— seen just now, from numbersapi.com"))
  }

  /// The key bar says what the keys do now: while loading, in the prompt, over the help.
  @Test(arguments: [
    (Screen.loading, "+/- count  c cancel  t kind  ? help  q quit"),
    (.prompt, "Enter go  Esc cancel  - negative  Backspace erase"),
    (.help, "? or Esc close help  q quit"),
    (.fact, "+/- count  0-9 go to  f fact  r random  ←/→ history  t kind  ? help  q quit"),
  ])
  func theKeyBarSaysWhatWorksNow(screen: Screen, hints: String) {
    let lines = FactView.frame(for: screen.state, size: TerminalSize(rows: 24, columns: 80)).lines
    #expect(lines.last?.trimmingCharacters(in: .whitespaces) == hints)
  }

  /// On a wide terminal the fact wraps at a readable width; the title and key bar still
  /// span the whole width.
  @Test func aWideTerminalKeepsTheFactAtAReadableWidth() {
    let frame = FactView.frame(
      for: Screen.longFact.state, size: TerminalSize(rows: 40, columns: 200))
    let factLines = frame.lines.filter { $0.contains("word") }
    #expect(factLines.count > 1)
    #expect(
      factLines.allSatisfy {
        $0.trimmingCharacters(in: .whitespaces).count <= FactView.readableWidth
      })
    #expect(frame.lines[0].hasPrefix(" numberfact") && frame.lines[0].hasSuffix("trivia"))
    #expect(frame.lines[0].count > 190)
  }

  /// At 40×10 a long fact is not cut off: the spacer rows give way first, then the body
  /// scrolls, its last row saying which lines are shown and how to move, and every line of
  /// it can be brought into view.
  @Test func aLongFactScrollsInASmallTerminal() {
    var state = Screen.longFact.state
    let size = TerminalSize(rows: 10, columns: 40)
    let top = FactView.frame(for: state, size: size)
    #expect(top.lines[1] == "  Count  42", "the spacer under the title gave way")
    #expect(top.lines[3].hasPrefix("  word1 "), "the spacer under the kind gave way")
    #expect(top.contains("Ctrl-D/U scroll · lines 1–5 of"))
    let maximum = FactView.maximumScroll(for: state, size: size)
    #expect(maximum > 0)
    var seen = Set<String>()
    for scroll in 0...maximum {
      state.scroll = scroll
      let frame = FactView.frame(for: state, size: size)
      #expect(frame.rows.count == size.rows)
      for line in frame.lines { seen.formUnion(line.split(separator: " ").map(String.init)) }
    }
    #expect((1...120).allSatisfy { seen.contains("word\($0)") })
    #expect(seen.contains("—"), "the source line is reachable")
  }

  /// When a fact fits once the spacer rows are gone, nothing scrolls.
  @Test func spacerRowsGiveWayBeforeTextIsCut() {
    let state = Screen.fact.state
    #expect(FactView.maximumScroll(for: state, size: TerminalSize(rows: 9, columns: 40)) == 0)
    let frame = FactView.frame(for: state, size: TerminalSize(rows: 9, columns: 40))
    #expect(frame.contains("42 is the answer."))
    #expect(frame.contains("— from numbersapi.com"))
    #expect(!frame.contains("scroll"))
  }
}
