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
    (.character("t"), .nextKind),
    (.character("?"), .toggleHelp),
    (.character("q"), .quit), (.control("c"), .quit),
    (.character("x"), nil), (.character("F"), nil), (.character("é"), nil),
    (.character("字"), nil), (.left, nil), (.right, nil), (.tab, nil), (.backspace, nil),
    (.function(1), nil), (.control("z"), .suspend), (.other(410), nil),
  ]

  @Test(arguments: table)
  func keyMapsToItsAction(key: Key, action: Action?) {
    #expect(KeyMap.action(for: key) == action)
  }

  @Test func everyActionHasAKeyAndAHelpLine() {
    let mapped = Set(Self.table.compactMap(\.1))
    #expect(mapped == Set(Action.allCases))
    #expect(KeyMap.help.count == Action.allCases.count)
  }
}
