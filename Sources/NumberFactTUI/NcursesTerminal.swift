import CNcurses
import Dispatch
import Foundation
import Glibc

/// The real terminal, drawn with ncurses.
///
/// Everything runs on the main actor, because ncurses is not thread-safe: keys are read
/// when a Dispatch source on the main queue reports stdin readable, and resizes and stop
/// signals arrive through Dispatch signal sources on the main queue. Nothing polls.
///
/// ``close()`` restores the terminal exactly: it leaves curses mode, shows the cursor and
/// puts back the `termios` settings saved at ``open(colors:)``.
@MainActor
package final class NcursesTerminal: Terminal {
  /// Why the terminal could not be opened.
  package enum OpenError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// `TERM` names no terminal this system describes, or is unset.
    case unknownTerminal(String)
    /// `TERM` names a terminal that cannot move its cursor, such as `dumb`.
    case notFullScreen(String)

    package var description: String {
      switch self {
      case .notATerminal:
        "the interactive app needs a terminal on stdin and stdout; in scripts use `numberfact fact N`"
      case .unknownTerminal(let name):
        name.isEmpty
          ? "TERM is not set, so the terminal type is unknown; try TERM=xterm-256color"
          : "unknown terminal type '\(name)' (TERM); try TERM=xterm-256color"
      case .notFullScreen(let name):
        "terminal type '\(name)' (TERM) cannot move the cursor, which the interactive app "
          + "needs; in scripts use `numberfact fact N`"
      }
    }
  }

  /// The signals that stop the app; each arrives as ``TerminalEvent/signal(_:)``.
  package static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  private let outlet = TerminalEventOutlet()
  private let screen: OpaquePointer
  private let files: [UnsafeMutablePointer<FILE>]
  private let inputDescriptor: Int32
  private let outputDescriptor: Int32
  private let savedSettings: termios?
  private let asciiOnly: Bool
  private let colorPairs: [TextRole: Int16]
  private var sources: [any DispatchSourceProtocol] = []
  private var inputSource: (any DispatchSourceRead)?
  private var handledSignals: [Int32] = []
  private var isClosed = false
  /// Sources whose handlers are not in place yet, and who waits for them.
  private var unregisteredSources = 0
  private var registrationWaiters: [CheckedContinuation<Void, Never>] = []
  /// The last frame drawn, to paint again after a suspension.
  private var lastDrawn: Frame?
  /// Whether the terminal has an alternate screen that hides the app's frames on exit.
  private let hasAlternateScreen: Bool

  /// Opens the terminal on standard input and output and switches it to curses mode.
  ///
  /// - Parameter colors: Whether to use colours when the terminal has them. Pass `false`
  ///   when `NO_COLOR` is set.
  /// - Throws: ``OpenError`` when stdin or stdout is not a terminal, or `TERM` is unknown or
  ///   cannot move the cursor.
  ///   Nothing has been changed on the terminal when it throws.
  package static func open(colors: Bool) throws -> NcursesTerminal {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
      throw OpenError.notATerminal
    }
    return try open(input: STDIN_FILENO, output: STDOUT_FILENO, colors: colors)
  }

  /// Opens the terminal on the given descriptors (a pseudo-terminal, `/dev/tty`) and
  /// switches it to curses mode. The descriptors stay the caller's to close.
  ///
  /// - Parameters:
  ///   - input: Where keys are read from.
  ///   - output: Where frames are written.
  ///   - terminalName: The terminfo entry; `TERM` by default.
  ///   - colors: Whether to use colours when the terminal has them.
  /// - Throws: ``OpenError`` as ``open(colors:)`` does.
  package static func open(
    input: Int32, output: Int32, terminalName: String? = nil, colors: Bool
  ) throws -> NcursesTerminal {
    guard isatty(input) == 1, isatty(output) == 1 else { throw OpenError.notATerminal }
    let terminal = try NcursesTerminal(
      input: input, output: output, terminalName: terminalName, colors: colors)
    terminal.listen()
    return terminal
  }

  /// Opens ncurses on `/dev/null` at `size`, drawing nowhere: what the testing module's
  /// `offscreen(size:terminalName:colors:)` builds on.
  package static func onDevNull(
    size: TerminalSize, terminalName: String, colors: Bool
  ) throws -> NcursesTerminal {
    let terminal = try NcursesTerminal(
      input: -1, output: -1, terminalName: terminalName, colors: colors)
    resizeterm(Int32(size.rows), Int32(size.columns))
    return terminal
  }

  private init(input: Int32, output: Int32, terminalName: String?, colors: Bool) throws {
    inputDescriptor = input
    outputDescriptor = output
    asciiOnly = !Self.useUTF8Locale()
    var saved = termios()
    savedSettings = input >= 0 && tcgetattr(input, &saved) == 0 ? saved : nil
    // Ignored before ncurses starts, so it installs no handler of its own; the Dispatch
    // sources receive these signals instead.
    if input >= 0 {
      for signal in [SIGWINCH, SIGTSTP] + Self.stopSignals { _ = Glibc.signal(signal, SIG_IGN) }
      handledSignals = [SIGWINCH, SIGTSTP] + Self.stopSignals
    }

    let outputFile = output >= 0 ? fdopen(dup(output), "w") : fopen("/dev/null", "w")
    let inputFile = input >= 0 ? fdopen(dup(input), "r") : fopen("/dev/null", "r")
    guard let outputFile, let inputFile else {
      Self.restoreSignals(handledSignals)
      throw OpenError.notATerminal
    }
    let name = terminalName ?? getenv("TERM").map { String(cString: $0) } ?? ""
    guard !name.isEmpty,
      let screen = name.withCString({ newterm($0, outputFile, inputFile) })
    else {
      fclose(outputFile)
      fclose(inputFile)
      Self.restoreSignals(handledSignals)
      throw OpenError.unknownTerminal(name)
    }
    ScreenRelease.opened()
    set_term(screen)
    // Without cursor addressing every frame would be printed one after another.
    guard cn_has_string_capability("cup") != 0 else {
      endwin()
      ScreenRelease.close(screen, files: [outputFile, inputFile])
      Self.restoreSignals(handledSignals)
      throw OpenError.notFullScreen(name)
    }
    self.screen = screen
    hasAlternateScreen = cn_has_string_capability("smcup") != 0
    files = [outputFile, inputFile]

    set_term(screen)
    raw()
    noecho()
    nonl()
    keypad(cn_stdscr(), true)
    nodelay(cn_stdscr(), true)
    _ = cn_set_escdelay(25)
    curs_set(0)
    var pairs: [TextRole: Int16] = [:]
    if colors, has_colors() {
      start_color()
      use_default_colors()
      // The terminal's own colours everywhere, so text reads on dark and light backgrounds
      // alike; colour only where it means something: an error is red.
      let palette: [(TextRole, Int16)] = [(.error, Int16(COLOR_RED))]
      for (index, (role, color)) in palette.enumerated() {
        let pair = Int16(index + 1)
        init_pair(pair, color, -1)
        pairs[role] = pair
      }
    }
    colorPairs = pairs
  }

  /// Prefers the environment's locale, then C.UTF-8, so wide characters can be drawn.
  private static func useUTF8Locale() -> Bool {
    func isUTF8() -> Bool {
      guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
      let name = String(cString: codeset).uppercased()
      return name == "UTF-8" || name == "UTF8"
    }
    setlocale(LC_ALL, "")
    if isUTF8() { return true }
    setlocale(LC_CTYPE, "C.UTF-8")
    return isUTF8()
  }

  private static func restoreSignals(_ signals: [Int32]) {
    for signal in signals { _ = Glibc.signal(signal, SIG_DFL) }
  }

  package var size: TerminalSize {
    set_term(screen)
    return TerminalSize(
      rows: Int(cn_getmaxy(cn_stdscr())), columns: Int(cn_getmaxx(cn_stdscr())))
  }

  package func draw(_ frame: Frame) {
    guard !isClosed else { return }
    set_term(screen)
    let window = cn_stdscr()
    werase(window)
    for (y, row) in frame.rows.enumerated() {
      var x = 0
      for span in row.spans {
        let text = asciiOnly ? Self.ascii(span.text) : span.text
        wattr_set(window, attributes(for: span.role), colorPairs[span.role] ?? 0, nil)
        // Writing the bottom-right cell reports an error after drawing it; that is fine.
        _ = mvwaddstr(window, Int32(y), Int32(x), text)
        x += DisplayWidth.of(text)
      }
    }
    wattr_set(window, cn_a_normal(), 0, nil)
    wnoutrefresh(window)
    let written = doupdate()
    lastDrawn = frame
    // A terminal that has gone away (its window closed, its connection dropped) fails the
    // write, or reports a hang-up: end the events, as for closed input.
    if outputDescriptor >= 0, written == ERR || Self.isHungUp(outputDescriptor) {
      endEvents()
    }
  }

  /// Whether `fd` reports a hang-up or an error, without waiting.
  private static func isHungUp(_ fd: Int32) -> Bool {
    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    guard poll(&poller, 1, 0) >= 0 else { return errno != EINTR }
    return poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
  }

  /// No more events: the loop that reads them ends, and the app with it.
  private func endEvents() {
    inputSource?.cancel()
    inputSource = nil
    outlet.send(.inputClosed)
  }

  package func start(_ receive: @escaping @MainActor (TerminalEvent) -> Void) {
    outlet.start(receive)
  }

  /// Stops the app as a shell's job control expects, for Ctrl-Z or a SIGTSTP from outside:
  /// leaves curses mode and restores the saved terminal settings, stops with SIGTSTP, and
  /// when continued (`fg`, SIGCONT) enters curses mode again, reads the size and repaints.
  package func suspend() {
    guard !isClosed, inputDescriptor >= 0 else { return }
    set_term(screen)
    curs_set(1)
    endwin()
    if var settings = savedSettings {
      tcsetattr(inputDescriptor, TCSADRAIN, &settings)
    }
    // SIGTSTP's default action stops the process; the handler and the signal mask in place
    // are put back once it runs again.
    var stop = sigaction()
    stop.__sigaction_handler.sa_handler = SIG_DFL
    var previous = sigaction()
    sigaction(SIGTSTP, &stop, &previous)
    var pending = sigset_t()
    sigemptyset(&pending)
    sigaddset(&pending, SIGTSTP)
    var mask = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &pending, &mask)
    raise(SIGTSTP)
    // Continued.
    pthread_sigmask(SIG_SETMASK, &mask, nil)
    sigaction(SIGTSTP, &previous, nil)
    continued()
  }

  /// Enters curses mode again after a suspension and repaints at the terminal's size now.
  ///
  /// It reads no keys: one typed as soon as the app is back belongs to the input source,
  /// which would otherwise find nothing to read when it fires.
  package func continued() {
    guard !isClosed else { return }
    set_term(screen)
    reset_prog_mode()
    curs_set(0)
    clearok(cn_stdscr(), true)
    if let lastDrawn { draw(lastDrawn) }
    resized()
  }

  package func repaint() {
    guard !isClosed, let lastDrawn else { return }
    set_term(screen)
    // The next update clears the screen and writes every cell, not only what changed
    // since the last frame: ncurses' idea of the screen no longer matches the glass.
    clearok(cn_stdscr(), true)
    draw(lastDrawn)
  }

  package func copyToClipboard(_ text: String) {
    guard !isClosed, outputDescriptor >= 0 else { return }
    // `c` is the clipboard selection; BEL ends the sequence, as more terminals accept it
    // than ST. Written past ncurses, which has nothing to draw for it.
    let sequence = Array(("\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}").utf8)
    var written = 0
    while written < sequence.count {
      let count = sequence[written...].withUnsafeBytes {
        Glibc.write(outputDescriptor, $0.baseAddress, $0.count)
      }
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      guard count > 0 else { return }
      written += count
    }
  }

  private func attributes(for role: TextRole) -> attr_t {
    switch role {
    case .normal: cn_a_normal()
    case .title: cn_a_reverse()
    case .count: cn_a_bold()
    case .error: cn_a_bold()
    // Dim text is faint on a light background; the key bar is plain instead.
    case .hint: cn_a_normal()
    case .source: cn_a_normal()
    }
  }

  private static func ascii(_ text: String) -> String {
    String(
      text.unicodeScalars.map { scalar -> Character in
        switch scalar {
        case "…": "."
        case "—": "-"
        case "↑": "^"
        case "↓": "v"
        default: scalar.isASCII ? Character(scalar) : "?"
        }
      })
  }

  /// Runs `body` with this terminal's ncurses screen current and its standard window: for
  /// the testing module, which reads back what was drawn.
  package func withScreen<T>(
    _ body: (UnsafeMutablePointer<WINDOW>?) throws -> T
  ) rethrows -> T {
    set_term(screen)
    return try body(cn_stdscr())
  }

  /// Starts the Dispatch sources for input, resizes and stop signals.
  private func listen() {
    let input = DispatchSource.makeReadSource(fileDescriptor: inputDescriptor, queue: .main)
    input.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.readKeys() }
    }
    sources.append(input)
    inputSource = input
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    resize.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.resized() }
    }
    sources.append(resize)
    for signal in Self.stopSignals {
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
      source.setEventHandler { [weak self] in
        MainActor.assumeIsolated { self?.outlet.send(.signal(signal)) }
      }
      sources.append(source)
    }
    // `kill -TSTP` from outside suspends as Ctrl-Z does.
    let stop = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .main)
    stop.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.suspend() }
    }
    sources.append(stop)
    // Dispatch installs a source's handler after `resume()` returns, on a queue of its own;
    // until then the signals stay ignored. `waitUntilListening()` waits for all of them.
    unregisteredSources = sources.count
    for source in sources {
      source.setRegistrationHandler { [weak self] in
        MainActor.assumeIsolated { self?.sourceRegistered() }
      }
    }
    for source in sources { source.resume() }
  }

  private func sourceRegistered() {
    unregisteredSources -= 1
    guard unregisteredSources == 0 else { return }
    for waiter in registrationWaiters { waiter.resume() }
    registrationWaiters = []
  }

  /// Returns once keys, resizes and signals are being listened for: a Ctrl-C or a SIGTSTP
  /// sent after this is handled, not lost. The app waits for it before its first frame.
  package func waitUntilListening() async {
    guard unregisteredSources > 0 else { return }
    await withCheckedContinuation { registrationWaiters.append($0) }
  }

  /// Reads every key waiting, so a paste is delivered as one batch, in order.
  package func readKeys() {
    guard !isClosed else { return }
    set_term(screen)
    if cn_bytes_available(inputDescriptor) <= 0, Self.hasEnded(inputDescriptor) {
      // Readable with nothing to read, and hung up or failing: the input has closed.
      endEvents()
      return
    }
    var keys: [Key] = []
    var character: wint_t = 0
    while true {
      let result = wget_wch(cn_stdscr(), &character)
      if result == ERR { break }
      if result == KEY_CODE_YES {
        if let key = Self.key(code: Int32(character)) { keys.append(key) }
      } else {
        keys.append(Self.key(character: UInt32(character)))
      }
    }
    if !keys.isEmpty { outlet.send(.keys(keys)) }
  }

  /// Whether the input at `fd` has ended: hung up, failing or closed. Readiness with
  /// nothing to read is not enough: the bytes that made it readable may have been read
  /// already, and a terminal that is still there says nothing of a hang-up.
  private static func hasEnded(_ fd: Int32) -> Bool {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 0) >= 0 else { return errno != EINTR && errno != EAGAIN }
    return poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
  }

  private func resized() {
    guard !isClosed else { return }
    let size = cn_window_size(outputDescriptor)
    guard size.ws_row > 0, size.ws_col > 0 else { return }
    set_term(screen)
    // `resize_term`, not `resizeterm`: it queues no KEY_RESIZE, so no key needs reading
    // here, where one typed meanwhile would be taken from the input source and lost.
    resize_term(Int32(size.ws_row), Int32(size.ws_col))
    clearok(cn_stdscr(), true)
    outlet.send(.resized(self.size))
  }

  static func key(character: UInt32) -> Key {
    Unicode.Scalar(character).map(Key.init(typed:)) ?? .other(Int(character))
  }

  static func key(code: Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_ENTER: return .enter
    case KEY_BACKSPACE: return .backspace
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_RESIZE: return nil
    case cn_key_f(1)...cn_key_f(63): return .function(Int(code - cn_key_f(0)))
    default: return .other(Int(code))
    }
  }

  /// Leaves curses mode and restores the terminal as it was; safe to call more than once.
  package func close() {
    guard !isClosed else { return }
    isClosed = true
    for source in sources { source.cancel() }
    sources = []
    outlet.send(.inputClosed)
    set_term(screen)
    curs_set(1)
    endwin()
    if !hasAlternateScreen {
      // Nothing hides the last frame on exit: clear the screen, so the shell's prompt
      // starts at the top of a clean one, as after `clear`.
      cn_put_capability("clear")
    }
    ScreenRelease.close(screen, files: files)
    if var settings = savedSettings {
      tcsetattr(inputDescriptor, TCSADRAIN, &settings)
    }
    Self.restoreSignals(handledSignals)
  }
}
