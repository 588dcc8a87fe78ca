import Foundation
import Glibc
import NumberFactTUI
import SuiteSupport
import TaskProvidingTesting
import Testing

extension NcursesScreenSuites {
  /// The terminal going away under the app: its window closed, its connection dropped. The
  /// events must end, so the app exits, instead of waiting on a descriptor that will never
  /// be readable again.
  @MainActor @Suite struct LostTerminalTests {
    /// Drains `terminal`'s events until they end. Without the fix they never end; the bound
    /// is generous because the main actor is shared with every other test of the run.
    func eventsEnd(_ terminal: NcursesTerminal) async throws {
      let events = terminal.eventStream()
      let drained = Task { for await _ in events {} }
      try await drained.value(timeout: .seconds(10))  // failure bound
    }

    @Test func aHungUpInputEndsTheEvents() async throws {
      let pty = try PseudoTerminal()
      defer { Glibc.close(pty.slave) }
      let terminal = try NcursesTerminal.open(
        input: pty.slave, output: pty.slave, terminalName: "xterm-256color", colors: false)
      defer { terminal.close() }
      terminal.draw(
        Frame(size: TerminalSize(rows: 24, columns: 80), rows: [Row([Span("Count  1")])]))
      Glibc.close(pty.master)  // the window closes: reads now fail with EIO
      try await eventsEnd(terminal)
    }

    @Test func aFailedWriteEndsTheEvents() async throws {
      let input = try PseudoTerminal()
      let output = try PseudoTerminal()
      defer {
        Glibc.close(input.master)
        Glibc.close(input.slave)
        Glibc.close(output.slave)
      }
      let terminal = try NcursesTerminal.open(
        input: input.slave, output: output.slave, terminalName: "xterm-256color", colors: false)
      defer { terminal.close() }
      await output.hangUp()
      // The input is still there; only drawing can notice that the output is gone.
      terminal.draw(
        Frame(size: TerminalSize(rows: 24, columns: 80), rows: [Row([Span("Count  2")])]))
      try await eventsEnd(terminal)
    }
  }
}
