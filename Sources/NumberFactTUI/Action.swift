/// What a key asks the app to do.
package enum Action: Hashable, Sendable, CaseIterable {
  /// Add one to the count.
  case increment
  /// Subtract one from the count.
  case decrement
  /// Ask for a fact about the count.
  case getFact
  /// Cancel the request in flight.
  case cancel
  /// Switch to the next kind of fact.
  case nextKind
  /// Show or hide the key help.
  case toggleHelp
  /// Stop the app for the shell's job control, until `fg`.
  case suspend
  /// Clear the screen and draw it again, whatever else was written there.
  case repaint
  /// Copy the fact on screen to the clipboard.
  case copyFact
  /// Open the number prompt; a digit key also types itself there.
  case typeNumber
  /// Ask for a fact about a random number.
  case random
  /// Ask the fact server now, ending a fallback's back-off.
  case askNetwork
  /// Show the fact before the one on screen.
  case previousFact
  /// Show the fact after the one on screen.
  case nextFact
  /// Show the oldest fact of the session.
  case oldestFact
  /// Show the newest fact of the session.
  case newestFact
  /// Add 100 to the count.
  case stepUp
  /// Subtract 100 from the count.
  case stepDown
  /// Scroll a fact or help too long for the screen down by a line.
  case scrollDown
  /// Scroll it back up by a line.
  case scrollUp
  /// Leave the app.
  case quit
}
