import NumberFactTUI
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
    (.control("l"), .repaint), (.character("y"), .copyFact),
  ]

  @Test(arguments: table)
  func keyMapsToItsAction(key: Key, action: Action?) {
    #expect(KeyMap.action(for: key) == action)
  }

  @Test func everyActionHasAKeyAndAHelpLine() {
    let mapped = Set(Self.table.compactMap(\.1))
    #expect(mapped == Set(Action.allCases))
    // Every action's keys are on the help screen: some lines name two actions.
    #expect(KeyMap.help.count == 15)
  }
}
