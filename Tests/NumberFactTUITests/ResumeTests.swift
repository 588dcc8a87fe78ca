import Foundation
import Glibc
import SuiteSupport
import TaskProvidingTesting
import Testing

@testable import NumberFactTUI

extension NcursesScreenSuites {
  /// Keys at the edges of a suspension: the input source alone reads keys, so none is lost,
  /// and a wake-up with nothing left to read never ends the app.
  @MainActor @Suite struct ResumeTests {
    /// The first batch of keys `terminal` reports, or `nil` when its events end first.
    func firstKeys(of terminal: NcursesTerminal) async throws -> [Key]? {
      let events = terminal.eventStream()
      let first = Task { () -> [Key]? in
        for await event in events {
          if case .keys(let keys) = event { return keys }
        }
        return nil
      }
      return try await first.value(timeout: .seconds(10))  // failure bound
    }

    /// Writes `text` at the keyboard's end and returns once the app's end can read it.
    func type(_ text: String, into pty: PseudoTerminal) {
      _ = text.utf8CString.withUnsafeBufferPointer {
        write(pty.master, $0.baseAddress, text.utf8.count)
      }
      var poller = pollfd(fd: pty.slave, events: Int16(POLLIN), revents: 0)
      while poll(&poller, 1, 10_000) < 0, errno == EINTR {}  // failure bound
    }

    /// Runs `body` with a terminal on a new pseudo-terminal, its first frame drawn; closes
    /// both after.
    func withTerminal(
      _ body: (NcursesTerminal, PseudoTerminal) async throws -> Void
    ) async throws {
      let pty = try PseudoTerminal()
      defer {
        Glibc.close(pty.master)
        Glibc.close(pty.slave)
      }
      let terminal = try await open(pty)
      defer { terminal.close() }
      try await body(terminal, pty)
    }

    func open(_ pty: PseudoTerminal) async throws -> NcursesTerminal {
      let terminal = try NcursesTerminal.open(
        input: pty.slave, output: pty.slave, terminalName: "xterm-256color", colors: false)
      await terminal.waitUntilListening()
      terminal.draw(
        Frame(size: TerminalSize(rows: 24, columns: 80), rows: [Row([Span("Count  7")])]))
      return terminal
    }

    /// `fg`, then `+` typed as soon as the screen is back, before the input source has had
    /// its turn: the `+` reaches the app. Re-entering curses mode used to read it while
    /// draining resize keys and drop it; the input source then found nothing to read and
    /// ended the app.
    @Test func aKeyTypedAsTheAppComesBackReachesIt() async throws {
      try await withTerminal { terminal, pty in
        type("+", into: pty)
        terminal.continued()
        let keys = try await firstKeys(of: terminal)
        #expect(keys == [.character("+")])
      }
    }

    /// A wake-up of the input source with nothing to read (its bytes read already) leaves
    /// the input open: the next key still arrives.
    @Test func aWakeUpWithNothingToReadKeepsTheInputOpen() async throws {
      try await withTerminal { terminal, pty in
        terminal.readKeys()
        type("5", into: pty)
        let keys = try await firstKeys(of: terminal)
        #expect(keys == [.character("5")])
      }
    }
  }
}
