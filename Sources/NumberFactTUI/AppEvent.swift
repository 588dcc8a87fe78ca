import Foundation
import NumberFactCore

/// Everything that happens to the app, as the render loop hands it to ``AppUpdate``.
package enum AppEvent: Hashable, Sendable {
  /// A key the person pressed.
  case key(Key)
  /// The feature as it is now: its state, where its fact is among the facts seen, and the
  /// time a stored fact's age is told against if that fact is new to the screen.
  case model(NumberFactFeature.State, HistoryPosition?, now: Date)
  /// The spinner's `n`th tick.
  case tick(Int)
  /// The terminal has this size now.
  case resized(TerminalSize)
  /// The time the fact client's back-off was to end has come.
  case backOffEnded
}
