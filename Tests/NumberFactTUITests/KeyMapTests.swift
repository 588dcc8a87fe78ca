import NumberFactTUI
import NumberFactTUITesting
import SuiteSupport
import Testing

@Suite struct KeyMapTests {
  static let table: [(Key, Action?)] = [
    (.character("+"), .increment), (.character("="), .increment), (.up, .increment),
    (.character("k"), .increment),
    (.character("-"), .decrement), (.character("_"), .decrement), (.down, .decrement),
    (.character("j"), .decrement),
    (.character("f"), .getFact), (.enter, .getFact), (.character(" "), .getFact),
    (.character("c"), .cancel), (.escape, .cancel),
    (.character("t"), .nextKind), (.character("n"), .askNetwork),
    (.character("?"), .toggleHelp),
    (.character("q"), .quit), (.control("c"), .quit),
    (.character("0"), .typeNumber), (.character("7"), .typeNumber), (.character("g"), .typeNumber),
    (.character("r"), .random), (.left, .previousFact), (.character("h"), .previousFact),
    (.right, .nextFact), (.character("l"), .nextFact), (.home, .oldestFact), (.end, .newestFact),
    (.pageUp, .stepUp), (.pageDown, .stepDown), (.function(1), .toggleHelp),
    (.character("x"), nil), (.character("F"), nil), (.character("é"), nil),
    (.character("字"), nil), (.character("٣"), nil), (.tab, nil), (.backspace, nil),
    (.function(2), nil), (.control("z"), .suspend), (.other(410), nil),
    (.control("l"), .repaint), (.character("y"), .copyFact), (.control("d"), .scrollDown),
    (.control("u"), .scrollUp),
  ]

  @Test(arguments: table)
  func keyMapsToItsAction(key: Key, action: Action?) {
    #expect(KeyMap.action(for: key) == action)
  }

  @Test func everyActionHasAKeyAndAHelpLine() {
    let mapped = Set(Self.table.compactMap(\.1))
    #expect(mapped == Set(Action.allCases))
    // Every action's keys are on the help screen: some lines name two actions.
    #expect(KeyMap.help.count == 17)
    #expect(KeyMap.help.map(\.keys) == KeyBindings.app.map(\.names))
  }

  /// `numberfact --help` tells the keys from the same table, in plain words.
  @Test func theCommandLineHelpIsReadFromTheTable() {
    let summary = KeyBindings.summary
    for binding in KeyBindings.app {
      #expect(summary.contains("\(binding.plainNames) \(binding.summary)"))
    }
    #expect(summary.contains("+ = Up k count up; - _ Down j count down;"))
    #expect(!summary.contains("↑"))
  }
}

/// What a typed character is as a key: the same whether a terminal reads it or a test types
/// it, so `type("6\r")` presses Enter on the virtual terminal as on the real one.
@MainActor @Suite struct TypedKeyTests {
  @Test func controlCharactersAreTheirKeys() {
    let typed = "\r\n\u{1B}\u{7F}\u{8}\t\u{3}\u{1A}\u{C}a字"
    #expect(
      typed.unicodeScalars.map(Key.init(typed:)) == [
        .enter, .enter, .escape, .backspace, .backspace, .tab, .control("c"), .control("z"),
        .control("l"), .character("a"), .character("字"),
      ])
  }

  @Test func theVirtualTerminalTypesWhatARealOneReads() async throws {
    let app = AppScript(count: 5)
    app.terminal.type("g6\r")
    try await app.facts.nextRequest().answer("6 is perfect.")
    #expect(app.model.state.count == 6)
    _ = await app.quit()
  }
}
