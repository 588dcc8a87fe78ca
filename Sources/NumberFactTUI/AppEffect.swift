import Foundation

/// What an update asks of the feature, the terminal or the render loop: the one thing the
/// pure ``AppUpdate`` cannot do itself.
package enum AppEffect: Hashable, Sendable {
  /// The feature's or the terminal's side of a key binding's action (`+`, `f`, `t`, Ctrl-Z,
  /// `q`…): each binding names one ``Action``, and this carries it as it is.
  case perform(Action)
  /// Go to this number, typed at the prompt, and ask for its fact.
  case goTo(Int)
  /// Put this text on the terminal's clipboard.
  case copy(String)
  /// Start the spinner's ticks: a request is in flight.
  case startSpinner
  /// Stop them: none is.
  case stopSpinner
  /// Wake the loop when the fact client's back-off, which the screen marks until this time,
  /// ends; `nil`: no mark, no wake-up.
  case watchBackOff(until: Date?)
  /// Have the feature read the fact client's back-off again: its time has come.
  case rereadBackOff
}
