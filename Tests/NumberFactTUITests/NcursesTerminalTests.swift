import NumberFactCore
import NumberFactTUI
import Testing

extension NcursesScreenSuites {
  /// The ncurses backend in this process, drawing to /dev/null: what the view draws must be
  /// what ncurses holds. ncurses has one current screen per process, so these run one at a
  /// time.
  @MainActor @Suite struct NcursesTerminalTests {
    static let states: [ViewState] = [
      ViewState(feature: .init(count: 42)),
      ViewState(feature: .init(count: 42, isLoading: true), spinnerFrame: 1),
      ViewState(
        feature: .init(
          count: 42,
          fact: NumberFact(
            number: 42, kind: .trivia,
            text: "四十二は答えです 😀👍🏽 the answer to life, the universe and everything."))),
      ViewState(feature: .init(count: .min, errorMessage: "Cannot reach numbersapi.com.")),
      ViewState(feature: .init(count: 3), showsHelp: true),
    ]

    @Test(arguments: [
      TerminalSize(rows: 24, columns: 80), TerminalSize(rows: 10, columns: 40),
      TerminalSize(rows: 5, columns: 20), TerminalSize(rows: 1, columns: 1),
    ])
    func screenHoldsWhatTheViewDrew(size: TerminalSize) throws {
      let terminal = try NcursesTerminal.offscreen(size: size, colors: true)
      defer { terminal.close() }
      #expect(terminal.size == size)
      for state in Self.states {
        let frame = FactView.frame(for: state, size: size)
        terminal.draw(frame)
        #expect(terminal.screenLines() == frame.lines)
      }
    }

    @Test func redrawingASmallerFrameLeavesNothingBehind() throws {
      let size = TerminalSize(rows: 24, columns: 80)
      let terminal = try NcursesTerminal.offscreen(size: size)
      defer { terminal.close() }
      let long = ViewState(
        feature: .init(
          fact: NumberFact(number: 0, kind: .trivia, text: String(repeating: "x ", count: 300))))
      terminal.draw(FactView.frame(for: long, size: size))
      let short = FactView.frame(for: ViewState(), size: size)
      terminal.draw(short)
      #expect(terminal.screenLines() == short.lines)
    }

    @Test func unknownTerminalIsAClearError() {
      #expect(throws: NcursesTerminal.OpenError.unknownTerminal("no-such-terminal-xyz")) {
        _ = try NcursesTerminal.offscreen(
          size: TerminalSize(rows: 24, columns: 80), terminalName: "no-such-terminal-xyz")
      }
      #expect(
        NcursesTerminal.OpenError.unknownTerminal("vt999").description
          == "unknown terminal type 'vt999' (TERM); try TERM=xterm-256color")
    }

    @Test func terminalThatCannotMoveTheCursorIsAClearError() {
      #expect(throws: NcursesTerminal.OpenError.notFullScreen("dumb")) {
        _ = try NcursesTerminal.offscreen(
          size: TerminalSize(rows: 24, columns: 80), terminalName: "dumb")
      }
    }
  }
}
