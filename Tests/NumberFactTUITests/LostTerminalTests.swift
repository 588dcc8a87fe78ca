import Foundation
import Glibc
import NumberFactTUI
import SuiteSupport
import TaskProvidingTesting
import Testing

/// A pseudo-terminal: the side a terminal emulator holds (master) and the side the app
/// reads and writes (slave).
private struct PseudoTerminal {
  let master: Int32
  let slave: Int32

  init() throws {
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    // Looked up at run time: the Glibc module declares them only under `_XOPEN_SOURCE`.
    let open = unsafeBitCast(dlsym(nil, "posix_openpt"), to: Open.self)
    let grant = unsafeBitCast(dlsym(nil, "grantpt"), to: Open.self)
    let unlock = unsafeBitCast(dlsym(nil, "unlockpt"), to: Open.self)
    let name = unsafeBitCast(dlsym(nil, "ptsname"), to: Name.self)
    master = open(O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard master >= 0, grant(master) == 0, unlock(master) == 0, let path = name(master) else {
      throw POSIXError(.ENOTTY)
    }
    slave = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw POSIXError(.ENOTTY) }
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
  }

  /// Closes the master side and returns once the slave side reports the hang-up.
  ///
  /// The kernel hangs the slave up when the master's last reference goes, and a process
  /// another test forks at that moment holds a copy until it execs: the hang-up can come a
  /// little after `close` returns.
  func hangUp() {
    Glibc.close(master)
    // No events asked for: poll returns only on a hang-up or an error.
    var poller = pollfd(fd: slave, events: 0, revents: 0)
    while poll(&poller, 1, 10_000) < 0, errno == EINTR {}  // failure bound
  }
}

/// The terminal going away under the app: its window closed, its connection dropped. The
/// events must end, so the app exits, instead of waiting on a descriptor that will never
/// be readable again.
@MainActor @Suite(.serialized, .responsiveMainActor) struct LostTerminalTests {
  /// Drains `terminal`'s events until they end. Without the fix they never end; the bound
  /// is generous because the main actor is shared with every other test of the run.
  func eventsEnd(_ terminal: NcursesTerminal) async throws {
    let events = terminal.events
    let drained = Task { for await _ in events {} }
    try await drained.value(timeout: .seconds(10))  // failure bound
  }

  @Test func aHungUpInputEndsTheEvents() async throws {
    let pty = try PseudoTerminal()
    defer { Glibc.close(pty.slave) }
    let terminal = try NcursesTerminal.open(
      input: pty.slave, output: pty.slave, terminalName: "xterm-256color", colors: false)
    defer { terminal.close() }
    terminal.draw(Frame(size: TerminalSize(rows: 24, columns: 80), rows: [Row([Span("Count  1")])]))
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
    output.hangUp()
    // The input is still there; only drawing can notice that the output is gone.
    terminal.draw(Frame(size: TerminalSize(rows: 24, columns: 80), rows: [Row([Span("Count  2")])]))
    try await eventsEnd(terminal)
  }
}
