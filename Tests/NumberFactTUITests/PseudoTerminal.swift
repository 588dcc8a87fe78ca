import Foundation
import Glibc
import NumberFactTUI

/// A pseudo-terminal: the side a terminal emulator holds (master) and the side the app
/// reads and writes (slave).
struct PseudoTerminal {
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
  /// little after `close` returns. The wait blocks a thread of its own, never the caller's
  /// actor: the main actor is shared with every other test of the run.
  func hangUp() async {
    Glibc.close(master)
    let slave = slave
    // No events asked for: the wait ends only on a hang-up or an error.
    _ = await onOwnThread { waitForDescriptor(slave, events: 0, upTo: .seconds(10)) }
  }
}

extension Terminal {
  /// The terminal's events as a stream that ends with the input: for a test that reads
  /// them in place of the render loop.
  func eventStream() -> AsyncStream<TerminalEvent> {
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    start { event in
      if event == .inputClosed {
        continuation.finish()
      } else {
        continuation.yield(event)
      }
    }
    return events
  }
}
