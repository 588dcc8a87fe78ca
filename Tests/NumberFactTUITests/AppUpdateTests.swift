import NumberFactCore
import NumberFactTUI
import Testing

/// The key handling as a pure function: a key and the view state in, the new view state and
/// the effect out.
@Suite struct AppUpdateTests {
  static let fact = NumberFact(number: 7, kind: .trivia, text: "7 is lucky.")

  func update(_ state: ViewState, _ keys: Key...) -> (ViewState, [AppEffect]) {
    var state = state
    let effects = keys.compactMap { AppUpdate.update(&state, for: $0) }
    return (state, effects)
  }

  @Test func keysOfTheFeatureBecomeItsEffects() {
    let (state, effects) = update(
      ViewState(), .character("+"), .down, .pageUp, .pageDown, .character("f"), .character("r"),
      .character("n"), .escape, .character("t"), .left, .right, .home, .end)
    #expect(
      effects == [
        .increment, .decrement, .step(100), .step(-100), .getFact, .random, .askNetwork, .cancel,
        .nextKind, .previousFact, .nextFact, .oldestFact, .newestFact,
      ])
    #expect(state == ViewState())
  }

  @Test func aDigitOpensThePromptAndEnterGoesThere() {
    let (typing, none) = update(ViewState(), .character("4"), .character("2"))
    #expect(none.isEmpty)
    #expect(typing.prompt?.text == "42")
    let (done, effects) = update(typing, .enter)
    #expect(effects == [.goTo(42)])
    #expect(done.prompt == nil)
  }

  @Test func escapeClosesThePromptAndCtrlCStillQuits() {
    let (typing, _) = update(ViewState(), .character("g"), .character("5"))
    #expect(update(typing, .escape).0.prompt == nil)
    #expect(update(typing, .escape).1.isEmpty)
    #expect(update(typing, .control("c")).1 == [.quit])
  }

  @Test func helpTogglesAndAnyOtherKeyClosesIt() {
    let (shown, none) = update(ViewState(), .character("?"))
    #expect(shown.showsHelp && none.isEmpty)
    #expect(!update(shown, .function(1)).0.showsHelp)
    let (closed, effects) = update(shown, .character("+"))
    #expect(!closed.showsHelp)
    #expect(effects == [.increment])
  }

  @Test func yCopiesTheFactOnScreenAndSaysSo() {
    let (nothing, none) = update(ViewState(), .character("y"))
    #expect(none.isEmpty)
    #expect(nothing.notice == "No fact to copy yet: f gets one.")
    let (copied, effects) = update(
      ViewState(feature: .init(count: 7, fact: Self.fact)), .character("y"))
    #expect(effects == [.copy("7 is lucky.")])
    #expect(copied.notice == "Copied the fact to the clipboard.")
    #expect(update(copied, .character("+")).0.notice == nil)
  }

  @Test func terminalKeysAskTheTerminalAndQQuits() {
    #expect(
      update(ViewState(), .control("z"), .control("l"), .character("q")).1 == [
        .suspend, .repaint, .quit,
      ])
  }

  @Test func scrollKeysMoveTheBodyAndAnyOtherKeyGoesBackToTheTop() {
    let (down, none) = update(ViewState(), .control("d"), .control("d"), .control("u"))
    #expect(none.isEmpty)
    #expect(down.scroll == 1)
    #expect(update(down, .control("u"), .control("u")).0.scroll == 0)
    #expect(update(down, .character("t")).0.scroll == 0)
  }

  @Test func unknownKeysChangeNothing() {
    let state = ViewState(feature: .init(count: 3), notice: "Copied the fact to the clipboard.")
    let (after, effects) = update(state, .character("x"), .function(9), .other(410), .tab)
    #expect(effects.isEmpty)
    #expect(after == state)
  }
}
