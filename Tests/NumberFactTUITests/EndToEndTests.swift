import FactServerSupport
import Foundation
import Glibc
import LockSupport
import SuiteSupport
import TaskProviding
import Testing

/// The built `numberfact`, used as a person uses it: in tmux at a fixed size, keys sent,
/// the screen read back. Skipped, with a message, where tmux is missing.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct EndToEndTests {
  /// A shell script that records the terminal settings, runs the app, then prints its
  /// exit status and records the settings again. Returns the command that runs it and the
  /// two settings files, which `expectSameSettings` removes.
  static func script(_ arguments: String, environment: String = "") throws
    -> (command: String, before: String, after: String)
  {
    let base = try writeScript(arguments, environment: environment, recordingSettings: true)
    return ("bash --norc --noprofile '\(base).sh'", base + ".before", base + ".after")
  }

  /// The command that runs the app and then prints its exit status, leaving no file behind.
  static func command(_ arguments: String, environment: String = "") throws -> String {
    let base = try writeScript(arguments, environment: environment, recordingSettings: false)
    return "bash --norc --noprofile '\(base).sh'"
  }

  /// Writes the script; it deletes itself as it starts (bash keeps reading the open file), so
  /// a session killed halfway leaves nothing in the temporary directory.
  private static func writeScript(
    _ arguments: String, environment: String, recordingSettings: Bool
  ) throws -> String {
    let base = NSTemporaryDirectory() + "numberfact-e2e-\(UUID().uuidString.prefix(8))"
    let record = { (suffix: String) in recordingSettings ? "stty -a > '\(base).\(suffix)'" : "" }
    let script = """
      rm -f -- "$0"
      \(record("before"))
      \(environment) '\(numberfactBinary.path)' \(arguments)
      status=$?
      \(record("after"))
      echo "EXIT=$status"
      """
    try script.write(toFile: base + ".sh", atomically: true, encoding: .utf8)
    return base
  }

  /// Runs `body` with the app's session, then stops the tmux server, whatever happened.
  /// Skips, with a message, where tmux is missing.
  static func withSession(
    _ command: String, columns: Int = 80, rows: Int = 24,
    _ body: (TmuxSession) async throws -> Void
  ) async throws {
    guard let tmux = tmuxBinary else {
      print("Skipping: tmux is not installed, so the app cannot be driven in a terminal.")
      return
    }
    let app = try await TmuxSession(tmux: tmux, command: command, columns: columns, rows: rows)
    do {
      try await body(app)
    } catch {
      await app.kill()
      throw error
    }
    await app.kill()
  }

  /// The names of `pid`'s threads, from `/proc`.
  static func threadNames(of pid: Int32) -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.compactMap {
      try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  static func expectSameSettings(_ before: String, _ after: String) throws {
    defer {
      unlink(before)
      unlink(after)
    }
    // The window size is not a setting the app restores: a test may have resized it.
    func settings(_ path: String) throws -> String {
      try String(contentsOfFile: path, encoding: .utf8)
        .replacing(/rows \d+; columns \d+;/, with: "")
    }
    let first = try settings(before)
    let second = try settings(after)
    #expect(!first.isEmpty)
    #expect(first == second, "stty -a differs after the app exited")
  }

  @Test func offlineSessionFromStartToQuit() async throws {
    let (command, before, after) = try Self.script("--source offline --count 41")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  41")
      try await app.send("+")
      try await app.waitForScreen(containing: "Count  42")
      try await app.send("f")
      try await app.waitForScreen(containing: "offline fact, computed on this machine")
      try await app.send("t")
      try await app.waitForScreen(containing: "Kind   math")
      try await app.send("?")
      try await app.waitForScreen(containing: "get a fact")
      try await app.send("q")
      try await app.waitForScreen(containing: "EXIT=0")
      try Self.expectSameSettings(before, after)
    }
  }

  /// Text another program writes to the terminal stays until Ctrl-L, which clears the screen
  /// and draws the app again.
  @Test func controlLClearsWhatAnotherProgramWrote() async throws {
    let command = try Self.command("--source offline --count 41")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  41")
      let tty = try await app.run("display-message", "-p", "-t", "app", "#{pane_tty}").stdout
        .trimmingCharacters(in: .whitespacesAndNewlines)
      let garbage = "\u{1B}[12;5HGARBAGE-FROM-ELSEWHERE"
      let terminal = try #require(FileHandle(forWritingAtPath: tty))
      terminal.write(Data(garbage.utf8))
      try terminal.close()
      try await app.waitForScreen(containing: "GARBAGE-FROM-ELSEWHERE")
      // A key that changes the count redraws only what changed: the garbage stays.
      try await app.send("+")
      try await app.waitForScreen(containing: "Count  42")
      #expect(try await app.screen().contains("GARBAGE-FROM-ELSEWHERE"))
      try await app.send("C-l")
      let screen = try await app.waitForScreen { !$0.contains("GARBAGE") }
      #expect(screen.contains("Count  42") && screen.contains("q quit"))
      try await app.send("q")
      try await app.waitForScreen(containing: "EXIT=0")
    }
  }

  /// `y` reaches tmux's clipboard through OSC 52, and `--print` leaves the last fact shown
  /// on the main screen after quitting, though `+` had cleared it.
  @Test func yCopiesThroughTheTerminalAndPrintLeavesTheLastFact() async throws {
    let command = try Self.command("--source offline --count 42 --print")
    try await Self.withSession(command) { app in
      try await app.run("set-option", "-g", "set-clipboard", "on")
      try await app.waitForScreen(containing: "Count  42")
      try await app.send("f")
      try await app.waitForScreen(containing: "offline fact, computed on this machine")
      try await app.send("y")
      try await app.waitForScreen(containing: "Copied the fact to the clipboard.")
      let copied = try await app.run("show-buffer").stdout
      #expect(copied.hasPrefix("42 is "), "\(copied)")
      try await app.send("+")
      try await app.waitForScreen(containing: "Count  43")
      try await app.send("q")
      let screen = try await app.waitForScreen { $0.contains("EXIT=0") }
      #expect(screen.contains(String(copied.prefix(40))), "\(screen)")
    }
  }

  @Test(arguments: [(Int.max - 1, "+++"), (Int.min + 1, "---")])
  func countStopsAtTheEdges(start: Int, keys: String) async throws {
    let (command, before, after) = try Self.script("--source offline --count \(start)")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  \(start)")
      try await app.send("-l", "--", keys + "f")  // "--": keys may start with "-"
      let edge = start == Int.max - 1 ? Int.max : Int.min
      try await app.waitForScreen { $0.contains("Count  \(edge)") && $0.contains("64-bit Int") }
      try await app.send("q")
      try await app.waitForScreen(containing: "EXIT=0")
      try Self.expectSameSettings(before, after)
    }
  }

  @Test func liveFactFromALocalServerAndResize() async throws {
    let server = try await FactServer(body: factJSON(text: "42 is the answer to everything."))
    defer { Task { await server.stop() } }
    let (command, before, after) = try Self.script(
      "--source live --base-url \(server.baseURL.absoluteString) --count 42")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  42")
      // The HTTP client's event-loop thread starts with the first request, not before.
      let pid = try await app.appPID()
      #expect(Self.threadNames(of: pid).allSatisfy { !$0.hasPrefix("NIO-ELT") })
      try await app.send("Enter")
      try await app.waitForScreen(containing: "42 is the answer to everything.")
      try await app.waitForScreen(containing: "— from 127.0.0.1:")
      #expect(Self.threadNames(of: pid).contains { $0.hasPrefix("NIO-ELT") })
      // URLSession's stack (libcurl and its TLS libraries) is not in the app at all. (Not
      // under ThreadSanitizer, whose shadow memory fills the map past what a read returns.)
      if !ThreadSanitizer.isActive {
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        #expect(maps.contains("numberfact"))
        #expect(!maps.contains("FoundationNetworking") && !maps.contains("libcurl"))
      }

      try await app.resize(columns: 20, rows: 5)
      let small = try await app.waitForScreen { $0.hasPrefix("42 trivia") }
      #expect(small.split(separator: "\n").allSatisfy { $0.count <= 20 })
      try await app.resize(columns: 80, rows: 24)
      try await app.waitForScreen(containing: " numberfact")
      try await app.send("C-c")
      try await app.waitForScreen(containing: "EXIT=0")
      try Self.expectSameSettings(before, after)
    }
  }

  @Test func pastedBurstAndResizeStorm() async throws {
    let (command, before, after) = try Self.script("--source offline")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  0")
      try await app.send("-l", String(repeating: "+", count: 10_000) + "--")
      try await app.waitForScreen(containing: "Count  9998")
      for step in 0..<100 {
        try await app.resize(columns: 20 + step % 60, rows: 5 + step % 20)
      }
      try await app.resize(columns: 80, rows: 24)
      try await app.waitForScreen { $0.hasPrefix(" numberfact") && $0.contains("Count  9998") }
      try await app.send("q")
      try await app.waitForScreen(containing: "EXIT=0")
      try Self.expectSameSettings(before, after)
    }
  }

  @Test(arguments: [(SIGTERM, "143"), (SIGHUP, "129"), (SIGINT, "130")])
  func signalRestoresTheTerminal(signal: Int32, status: String) async throws {
    let server = try await FactServer.silent()  // a request stays in flight
    defer { Task { await server.stop() } }
    let (command, before, after) = try Self.script(
      "--source live --timeout 60 --base-url \(server.baseURL.absoluteString)")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  0")
      try await app.send("f")
      try await app.waitForScreen(containing: "Fetching")
      let shell = try await app.panePID()
      let child = try await runProcess(
        URL(fileURLWithPath: "/usr/bin/pgrep"), ["-P", "\(shell)", "numberfact"])
      let pid = try #require(Int32(child.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
      Glibc.kill(pid, signal)
      try await app.waitForScreen(containing: "EXIT=\(status)")
      try Self.expectSameSettings(before, after)
    }
  }

  /// Ctrl-Z and `fg` in an interactive shell, as with vim or less: the shell gets its
  /// terminal back in its own settings, and `fg` brings the app back, repainted, working.
  @Test func controlZSuspendsAndFgResumes() async throws {
    try await Self.withSession("bash --norc --noprofile -i") { shell in
      try await shell.waitForScreen(containing: "bash-")
      try await shell.send("stty -a > \(NSTemporaryDirectory())numberfact-stty-before", "Enter")
      try await shell.send(
        "'\(numberfactBinary.path)' --source offline --count 41 2>'\(Self.stderrFile(of: shell))'",
        "Enter")
      try await shell.waitForScreen(containing: "Count  41")
      try await shell.send("+")
      try await shell.waitForScreen(containing: "Count  42")
      try await shell.send("C-z")
      try await shell.waitForScreen(containing: "Stopped")
      let stopped = try await shell.screen()
      #expect(!stopped.contains("Count  42"), "the app's screen is gone while it is stopped")
      try await shell.send("stty -a > \(NSTemporaryDirectory())numberfact-stty-stopped", "Enter")
      try await shell.send("fg", "Enter")
      try await Self.wait(shell, untilTheAppShows: "Count  42")
      try await shell.send("+")
      try await Self.wait(shell, untilTheAppShows: "Count  43")
      try await Self.quit(shell)
      try await shell.send("echo EXIT=$?", "Enter")
      try await shell.waitForScreen(containing: "EXIT=0")
      let before = NSTemporaryDirectory() + "numberfact-stty-before"
      let stoppedSettings = NSTemporaryDirectory() + "numberfact-stty-stopped"
      try Self.expectSameSettings(before, stoppedSettings)
    }
  }

  /// Quits the app run from `shell` with `q`, and returns once the shell's prompt is back:
  /// keys typed before then are the app's to read, and go with it.
  static func quit(_ shell: TmuxSession) async throws {
    try await shell.send("q")
    try await shell.waitForScreen { screen in
      let last = screen.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }
      return !screen.hasPrefix(" numberfact")
        && last.map { $0.hasPrefix("bash-") && $0.hasSuffix("#") } == true
    }
  }

  /// Where a test that types the app's command into a shell sends its standard error.
  static func stderrFile(of shell: TmuxSession) -> String {
    shell.fifo + ".stderr"
  }

  /// Waits for the app, run from `shell`, to show `text`. When it does not, the error says
  /// how the app ended: its exit status, as the shell reports it, and its standard error.
  static func wait(_ shell: TmuxSession, untilTheAppShows text: String) async throws {
    do {
      try await shell.waitForScreen(containing: text)
    } catch {
      try await shell.send("echo STATUS=$?", "Enter")
      let screen = try? await shell.waitForScreen(timeout: .seconds(5)) {  // failure bound
        $0.contains("STATUS=")
      }
      let stderr = (try? String(contentsOfFile: stderrFile(of: shell), encoding: .utf8)) ?? ""
      throw ScreenTimeoutError(
        timeout: .seconds(10),
        screen: (screen ?? (error as? ScreenTimeoutError)?.screen ?? "")
          + "\nThe app's standard error:\n" + stderr)
    }
  }

  /// The number prompt's bad input and the history's repeats, on the real binary.
  @Test func numberPromptAndHistoryInTheRealApp() async throws {
    let (command, before, after) = try Self.script("--source offline")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  0")
      try await app.send("-l", "99999999999999999999")
      try await app.send("Enter")
      try await app.waitForScreen(containing: "Too large: a number here is from")
      try await app.send("Escape")
      try await app.waitForScreen(containing: "Count  0")
      try await app.send("-l", "5--abc")  // each - toggles the sign; letters are dropped
      try await app.waitForScreen(containing: "Only digits")
      try await app.send("Enter")
      // Its fact shown, not only the count: a number entered while 5's fact still loads
      // would replace it, and 5 would never be history.
      try await app.waitForScreen { $0.contains("Count  5\n") && $0.contains("1 of 1") }
      // A dozen more facts. Each is awaited before the next number goes in: a number
      // entered while the last fact is still loading replaces it, and a fact never shown is
      // not history. 5 again is a repeat: it moves to the end instead of counting twice.
      for number in 1...12 {
        try await app.send("-l", "\(number)")
        try await app.send("Enter")
        let seen = number < 5 ? number + 1 : number
        try await app.waitForScreen {
          $0.contains("Count  \(number)\n") && $0.contains("\(seen) of \(seen)")
        }
      }
      try await app.send("Home")
      try await app.waitForScreen { $0.contains("Count  1\n") && $0.contains("1 of 12") }
      try await app.send("q")
      try await app.waitForScreen(containing: "EXIT=0")
      try Self.expectSameSettings(before, after)
    }
  }

  /// What a run saw is there the next time: the count and kind it ended at, and its facts
  /// behind Left, from the store under the session's own `XDG_DATA_HOME`.
  @Test func theNextRunStartsWhereThisOneEndedWithItsHistory() async throws {
    try await Self.withSession("bash --norc --noprofile -i") { shell in
      try await shell.waitForScreen(containing: "bash-")
      let app = "'\(numberfactBinary.path)' --source offline"
      try await shell.send("\(app) --count 41", "Enter")
      try await shell.waitForScreen(containing: "Count  41")
      try await shell.send("f")
      try await shell.waitForScreen(containing: "1 of 1")
      try await shell.send("t")
      try await shell.waitForScreen { $0.contains("Kind   math") && $0.contains("2 of 2") }
      try await Self.quit(shell)
      try await shell.send("clear; \(app)", "Enter")
      try await shell.waitForScreen { $0.contains("Count  41") && $0.contains("Kind   math") }
      try await shell.send("Left")
      try await shell.waitForScreen { $0.contains("41 is") && $0.contains("2 of 2") }
      try await shell.send("Home")
      try await shell.waitForScreen { $0.contains("Kind   trivia") && $0.contains("1 of 2") }
      try await Self.quit(shell)
      try await shell.send("clear; \(app) --count 7 --no-store", "Enter")
      try await shell.waitForScreen(containing: "Count  7")
      try await shell.send("Left")
      try await Self.quit(shell)
      try await shell.send("echo EXIT=$?", "Enter")
      try await shell.waitForScreen(containing: "EXIT=0")
      #expect(!(try await shell.screen()).contains("of 2"), "--no-store reads no history")
    }
  }

  /// `history --clear` at a terminal asks first: anything but yes forgets nothing; yes
  /// forgets every fact and says how many.
  @Test func historyClearAsksFirstAtATerminal() async throws {
    try await Self.withSession("bash --norc --noprofile -i") { shell in
      try await shell.waitForScreen(containing: "bash-")
      let app = "'\(numberfactBinary.path)'"
      try await shell.send("\(app) fact 5..7 --source offline > /dev/null", "Enter")
      try await shell.send("clear; \(app) history --clear", "Enter")
      try await shell.waitForScreen(containing: "Forget every fact seen? [y/N]")
      try await shell.send("n", "Enter")
      try await shell.waitForScreen(containing: "nothing forgotten")
      try await shell.send("\(app) history | wc -l; \(app) history --clear", "Enter")
      try await shell.waitForScreen { $0.components(separatedBy: "[y/N]").count == 3 }
      #expect(try await shell.screen().contains("\n3\n"), "the facts were kept")
      try await shell.send("y", "Enter")
      try await shell.waitForScreen(containing: "forgot 3 facts")
      try await shell.send("clear; \(app) history | wc -l", "Enter")
      // After `clear`, the count is the screen's first line.
      try await shell.waitForScreen { $0.hasPrefix("0\n") }
    }
  }

  /// A server that fails with 503: the app shows an offline fact that says so; while the
  /// back-off runs it says the server was not asked; `n` asks it at once.
  @Test func aServerErrorFallsBackHonestlyAndNAsksAgainAtOnce() async throws {
    let healthy = Locked(false)
    let server = try await FactServer { _ in
      guard healthy.withLock({ $0 }) else {
        return HTTPResponse(
          statusCode: HTTPStatusCode(503, phrase: "Service Unavailable"),
          body: Data("down for maintenance".utf8))
      }
      return HTTPResponse(
        statusCode: .ok, body: Data(factJSON(text: "7 is live again.", number: "7").utf8))
    }
    defer { Task { await server.stop() } }
    let command = try Self.command("--base-url \(server.baseURL.absoluteString) --count 7")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  7")
      try await app.send("f")
      try await app.waitForScreen {
        $0.contains("answered HTTP 503") && $0.contains("offline until")
      }
      healthy.withLock { $0 = true }
      try await app.send("f")
      try await app.waitForScreen(containing: "not asked for another")
      try await app.send("n")
      try await app.waitForScreen {
        $0.contains("7 is live again.") && $0.contains("from 127.0.0.1")
      }
      try await app.send("q")
      try await app.waitForScreen(containing: "EXIT=0")
    }
  }

  /// A live fact with a family emoji in it, as numbersapi.com gives for 14: the text after
  /// it stays in place, and the next key leaves none of it behind. The terminal draws the
  /// joined family in 2 cells and ncurses counted 8, so the rest of the line landed 6 cells
  /// early and `ut 14…` stayed on screen after the fact had gone.
  @Test func aJoinedEmojiLeavesNothingBehind() async throws {
    let text = "The 👨‍👩‍👧‍👦 of 14 sat down to a fact about 14."
    let server = try await FactServer { _ in
      HTTPResponse(statusCode: .ok, body: Data(factJSON(text: text, number: "14").utf8))
    }
    defer { Task { await server.stop() } }
    let command = try Self.command(
      "--base-url \(server.baseURL.absoluteString) --count 14 --no-store")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  14")
      try await app.send("f")
      // Not "a fact about 14.": the empty screen's "a trivia fact about 14." holds that too.
      let shown = try await app.waitForScreen(containing: "sat down to a fact about 14.")
      #expect(shown.contains("  The 👨👩👧👦 of 14 sat down to a fact about 14.\n"))
      try await app.send("+")
      let after = try await app.waitForScreen(containing: "Count  15")
      #expect(!after.contains("14."), "\(after)")
      try await app.send("q")
      try await app.waitForScreen(containing: "EXIT=0")
    }
  }

  /// `kill -TSTP` from outside suspends the same way, and `fg` (SIGCONT, and the terminal
  /// back) brings the app back.
  @Test func stopSignalFromOutsideSuspendsAndFgResumes() async throws {
    try await Self.withSession("bash --norc --noprofile -i") { shell in
      try await shell.waitForScreen(containing: "bash-")
      try await shell.send(
        "'\(numberfactBinary.path)' --source offline --count 7 2>'\(Self.stderrFile(of: shell))'",
        "Enter")
      try await shell.waitForScreen(containing: "Count  7")
      let pid = try await shell.appPID()
      Glibc.kill(pid, SIGTSTP)
      try await shell.waitForScreen(containing: "Stopped")
      try await shell.send("fg", "Enter")
      try await Self.wait(shell, untilTheAppShows: "Count  7")
      try await shell.send("+")
      try await Self.wait(shell, untilTheAppShows: "Count  8")
      try await Self.quit(shell)
      try await shell.send("echo EXIT=$?", "Enter")
      try await shell.waitForScreen(containing: "EXIT=0")
    }
  }

  /// The terminal goes away under an app whose parent ignores SIGHUP: it must still end,
  /// not wait forever on a terminal that is gone.
  @Test func aLostTerminalEndsTheAppEvenWithHangUpIgnored() async throws {
    let fifo = NSTemporaryDirectory() + "numberfact-lost-\(UUID().uuidString.prefix(8))"
    guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EEXIST) }
    defer { unlink(fifo) }
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    let keepOpen = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    defer {
      close(reader)
      close(keepOpen)
    }
    // The shell, which ignores hang-ups, says when the app has ended.
    let command =
      "bash --norc --noprofile -c \"trap '' HUP; '\(numberfactBinary.path)' --source offline; "
      + "echo \\$? > '\(fifo)'\""
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  0")
      let pid = try await app.appPID()
      #expect(pid > 0)
      await app.kill()  // the tmux server, and with it the terminal, go away
      let ended = await Self.readLine(from: reader, timeout: .seconds(5))  // failure bound
      #expect(ended != nil, "numberfact \(pid) did not end when its terminal went away")
      if ended == nil { Glibc.kill(pid, SIGKILL) }
    }
  }

  /// The first line written to the FIFO behind `reader`, or `nil` after `timeout`.
  static func readLine(from reader: Int32, timeout: Duration) async -> String? {
    await onOwnThread {
      guard waitForDescriptor(reader, events: Int16(POLLIN), upTo: timeout) else { return nil }
      var buffer = [UInt8](repeating: 0, count: 256)
      let count = read(reader, &buffer, buffer.count)
      return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }
  }

  /// A terminal without an alternate screen keeps whatever is on it after exit: the app
  /// clears its frame, so the prompt starts on a clean screen, not over the key bar.
  @Test(arguments: ["vt100", "linux"])
  func withoutAnAlternateScreenQuittingLeavesAClearScreen(term: String) async throws {
    let command = try Self.command("--source offline --count 5", environment: "TERM=\(term)")
    try await Self.withSession(command) { app in
      try await app.waitForScreen(containing: "Count  5")
      try await app.send("q")
      let screen = try await app.waitForScreen { $0.contains("EXIT=0") }
      #expect(!screen.contains("Count"))
      #expect(!screen.contains("quit"))
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.first?.hasPrefix("EXIT=0") == true, "\(screen)")
    }
  }

  @Test(arguments: [
    ("TERM=vt999", "numberfact: unknown terminal type 'vt999' (TERM); try TERM=xterm-256color"),
    ("TERM=dumb", "numberfact: terminal type 'dumb' (TERM) cannot move the cursor"),
    (
      "env -u TERM",
      "numberfact: TERM is not set, so the terminal type is unknown; try TERM="
    ),
  ])
  func unusableTerminalTypeIsOneClearLine(term: String, message: String) async throws {
    let (command, before, after) = try Self.script("--source offline", environment: term)
    try await Self.withSession(command) { app in
      let screen = try await app.waitForScreen { $0.contains("EXIT=") }
      #expect(screen.contains(message))
      #expect(screen.contains("EXIT=1"))
      try Self.expectSameSettings(before, after)
    }
  }

  @Test func notATerminalIsOneClearLine() async throws {
    let result = try await runProcess(numberfactBinary, ["--source", "offline"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "numberfact: the interactive app needs a terminal on stdin and stdout; in scripts use `numberfact fact N`\n"
    )
  }
}
