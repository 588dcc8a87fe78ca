import Foundation
import NumberFactCore

/// Everything the screen shows: the feature's state plus what only the terminal app has.
package struct ViewState: Hashable, Sendable {
  /// The feature's state.
  package var feature: NumberFactFeature.State
  /// Which spinner frame to show while loading; any value, it wraps.
  package var spinnerFrame: Int
  /// Whether the key help replaces the fact.
  package var showsHelp: Bool
  /// The number being typed on the count line, while the prompt is open.
  package var prompt: NumberPrompt?
  /// Where the fact shown is among the facts seen ("3 of 7").
  package var historyPosition: HistoryPosition?
  /// The time a stored fact's age is told against ("seen 3 days ago"), set when the fact
  /// is shown, so the view never reads the clock. Without it, the age is told as of when
  /// the fact was seen.
  package var now: Date?
  /// A line about what the last key did ("Copied the fact to the clipboard."), until the
  /// next key or the next fact.
  package var notice: String?
  /// How many rows of the body (the fact, the help) are scrolled out of sight at the top,
  /// when it does not fit.
  package var scroll: Int

  /// Creates a view state.
  package init(
    feature: NumberFactFeature.State = .init(), spinnerFrame: Int = 0, showsHelp: Bool = false,
    prompt: NumberPrompt? = nil, historyPosition: HistoryPosition? = nil, now: Date? = nil,
    notice: String? = nil, scroll: Int = 0
  ) {
    self.feature = feature
    self.spinnerFrame = spinnerFrame
    self.showsHelp = showsHelp
    self.prompt = prompt
    self.historyPosition = historyPosition
    self.now = now
    self.notice = notice
    self.scroll = scroll
  }
}
