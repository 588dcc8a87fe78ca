/// What a key asks of the world beyond the view state: the feature, the terminal or the
/// app. ``AppUpdate`` returns it; the render loop carries it out.
package enum AppEffect: Hashable, Sendable {
  /// Count up by one.
  case increment
  /// Count down by one.
  case decrement
  /// Count up or down by this much.
  case step(Int)
  /// Ask for a fact about the count.
  case getFact
  /// Go to this number and ask for its fact.
  case goTo(Int)
  /// Ask for a fact about a random number.
  case random
  /// Ask the fact server now, ending a back-off.
  case askNetwork
  /// Cancel the request in flight.
  case cancel
  /// Move to the next kind of fact.
  case nextKind
  /// Show the fact before the one on screen.
  case previousFact
  /// Show the fact after the one on screen.
  case nextFact
  /// Show the oldest fact seen.
  case oldestFact
  /// Show the newest fact seen.
  case newestFact
  /// Put this text on the terminal's clipboard.
  case copy(String)
  /// Stop for the shell's job control, until `fg`.
  case suspend
  /// Clear the screen and draw it again.
  case repaint
  /// Leave the app.
  case quit
}
