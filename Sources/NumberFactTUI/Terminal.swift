/// Something that happened at the terminal.
package enum TerminalEvent: Hashable, Sendable {
  /// Keys read together, in order. A paste arrives as one batch.
  case keys([Key])
  /// The terminal now has this size.
  case resized(TerminalSize)
  /// The process received a signal that asks it to stop (interrupt, terminate, hang-up).
  case signal(Int32)
  /// The input has ended: the terminal hung up or went away. Nothing follows it.
  case inputClosed
}

/// A screen the app draws frames on and reads keys from.
///
/// Implementations: `NcursesTerminal` for a real terminal, and `VirtualTerminal` (in
/// NumberFactTUITesting) in memory for tests. Both are used from the main actor only; ncurses is not thread-safe.
@MainActor
package protocol Terminal: AnyObject {
  /// The current size.
  var size: TerminalSize { get }

  /// Shows `frame`, replacing what was there.
  func draw(_ frame: Frame)

  /// Hands keys, resizes, signals and the end of the input to `receive`, on the main actor,
  /// in the order they happened, starting with any that came before this call. Called once,
  /// by the render loop: an event reaches it without a hop through another executor.
  func start(_ receive: @escaping @MainActor (TerminalEvent) -> Void)

  /// Stops the app for the shell's job control (Ctrl-Z) and returns once it is continued,
  /// with the screen repainted.
  func suspend()

  /// Clears the screen and draws the last frame again, for Ctrl-L: whatever else was
  /// written to the terminal goes.
  func repaint()

  /// Puts `text` on the clipboard of the terminal, or of the terminal the app runs in
  /// through tmux or ssh, with an OSC 52 sequence: no clipboard program, no display server.
  /// A terminal that does not take the sequence ignores it.
  func copyToClipboard(_ text: String)
}
