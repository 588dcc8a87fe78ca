import Foundation
import NumberFactCore
import NumberFactTUI
import Testing

/// The app's one update path as a pure function: an event (a key, the feature as it is, a
/// tick, a resize) and the view state in, the new view state and the effects out. Tested
/// here without a loop, a terminal or a model.
@Suite struct AppUpdateTests {
  static let fact = NumberFact(number: 7, kind: .trivia, text: "7 is lucky.")
  static let size = TerminalSize(rows: 24, columns: 80)

  func update(_ state: ViewState, _ keys: Key...) -> (ViewState, [AppEffect]) {
    update(state, keys.map(AppEvent.key))
  }

  func update(
    _ state: ViewState, _ events: [AppEvent], size: TerminalSize = Self.size
  ) -> (ViewState, [AppEffect]) {
    var state = state
    let effects = events.flatMap { AppUpdate.update(&state, on: $0, size: size) }
    return (state, effects)
  }

  @Test func keysOfTheFeatureBecomeItsEffects() {
    let (state, effects) = update(
      ViewState(), .character("+"), .down, .pageUp, .pageDown, .character("f"), .character("r"),
      .character("n"), .escape, .character("t"), .left, .right, .home, .end)
    // Each binding's action, as it is: no second name for the same command.
    #expect(
      effects
        == [
          .increment, .decrement, .stepUp, .stepDown, .getFact, .random, .askNetwork, .cancel,
          .nextKind, .previousFact, .nextFact, .oldestFact, .newestFact,
        ].map(AppEffect.perform))
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
    #expect(update(typing, .control("c")).1 == [.perform(.quit)])
  }

  @Test func helpTogglesAndAnyOtherKeyClosesIt() {
    let (shown, none) = update(ViewState(), .character("?"))
    #expect(shown.showsHelp && none.isEmpty)
    #expect(!update(shown, .function(1)).0.showsHelp)
    let (closed, effects) = update(shown, .character("+"))
    #expect(!closed.showsHelp)
    #expect(effects == [.perform(.increment)])
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
        .perform(.suspend), .perform(.repaint), .perform(.quit),
      ])
  }

  @Test func scrollKeysMoveTheBodyWithinWhatThereIsAndAnyOtherKeyGoesBackToTheTop() {
    // The help on a small terminal: more rows than fit.
    let small = TerminalSize(rows: 8, columns: 40)
    let help = ViewState(showsHelp: true)
    let limit = FactView.maximumScroll(for: help, size: small)
    #expect(limit > 2)
    let keys = [Key.control("d"), .control("d"), .control("u")].map(AppEvent.key)
    let (down, none) = update(help, keys, size: small)
    #expect(none.isEmpty)
    #expect(down.scroll == 1)
    let past = [AppEvent](repeating: .key(.control("d")), count: limit + 5)
    #expect(update(help, past, size: small).0.scroll == limit)
    #expect(update(down, [.key(.control("u")), .key(.control("u"))], size: small).0.scroll == 0)
    #expect(update(down, [.key(.character("t"))], size: small).0.scroll == 0)
    // Nothing to scroll at a size where everything fits.
    #expect(update(ViewState(), .control("d")).0.scroll == 0)
  }

  @Test func aResizeKeepsTheScrollWithinTheNewSize() {
    let small = TerminalSize(rows: 8, columns: 40)
    let help = ViewState(showsHelp: true)
    let limit = FactView.maximumScroll(for: help, size: small)
    let (scrolled, _) = update(
      help, [AppEvent](repeating: .key(.control("d")), count: limit), size: small)
    #expect(scrolled.scroll == limit)
    let (resized, effects) = update(scrolled, [.resized(TerminalSize(rows: 200, columns: 200))])
    #expect(effects.isEmpty)
    #expect(resized.scroll == 0)
  }

  @Test func aNewFactGoesBackToTheTopEndsTheNoticeAndFixesItsAge() {
    let now = Date(timeIntervalSince1970: 1_000_000)
    var stored = Self.fact
    stored.source = .stored
    let state = ViewState(
      feature: .init(count: 7), notice: "Copied the fact to the clipboard.", scroll: 3)
    let (shown, effects) = update(
      state, [.model(.init(count: 7, fact: stored), HistoryPosition(number: 2, of: 5), now: now)])
    #expect(effects.isEmpty)
    #expect(shown.scroll == 0 && shown.notice == nil)
    #expect(shown.now == now)
    #expect(shown.historyPosition?.description == "2 of 5")
    // The same fact again changes neither the time nor the scroll.
    var scrolled = shown
    scrolled.scroll = 1
    let (same, _) = update(
      scrolled, [.model(.init(count: 7, fact: stored), nil, now: now.addingTimeInterval(60))])
    #expect(same.now == now && same.scroll == 1)
    // A live fact has no age to tell.
    #expect(update(state, [.model(.init(count: 7, fact: Self.fact), nil, now: now)]).0.now == nil)
  }

  @Test func loadingStartsTheSpinnerAndItsEndStopsItAtItsFirstFrame() {
    let now = Date()
    let (loading, started) = update(ViewState(), [.model(.init(isLoading: true), nil, now: now)])
    #expect(started == [.startSpinner])
    let (ticked, none) = update(loading, [.tick(1), .tick(2)])
    #expect(none.isEmpty && ticked.spinnerFrame == 2)
    // Still loading: nothing to start again.
    #expect(update(ticked, [.model(.init(isLoading: true), nil, now: now)]).1.isEmpty)
    let (done, stopped) = update(ticked, [.model(.init(), nil, now: now)])
    #expect(stopped == [.stopSpinner])
    #expect(done.spinnerFrame == 0)
    // A tick that was on its way when loading ended moves nothing.
    #expect(update(done, [.tick(3)]).0.spinnerFrame == 0)
  }

  @Test func aBackOffTimeIsWatchedAndItsEndReread() {
    let now = Date()
    let until = now.addingTimeInterval(30)
    let (marked, watched) = update(
      ViewState(), [.model(.init(offlineUntil: until), nil, now: now)])
    #expect(watched == [.watchBackOff(until: until)])
    #expect(update(marked, [.model(.init(offlineUntil: until), nil, now: now)]).1.isEmpty)
    #expect(update(marked, [.backOffEnded]).1 == [.rereadBackOff])
    #expect(
      update(marked, [.model(.init(), nil, now: now)]).1 == [.watchBackOff(until: nil)])
  }

  @Test func unknownKeysChangeNothing() {
    let state = ViewState(feature: .init(count: 3), notice: "Copied the fact to the clipboard.")
    let (after, effects) = update(state, .character("x"), .function(9), .other(410), .tab)
    #expect(effects.isEmpty)
    #expect(after == state)
  }
}
