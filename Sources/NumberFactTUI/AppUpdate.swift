import Foundation
import NumberFactCore

/// The app's one update path, as one pure function: an event (a key, the feature as it is
/// now, a tick, a resize) and the view state in; the new view state and what must happen
/// out. No terminal, no model, no clock.
///
/// What the screen alone shows (the prompt, the help, a notice, the scroll, the spinner's
/// frame) changes here; what the feature, the terminal or the loop must do comes back as
/// ``AppEffect``s, in order.
package enum AppUpdate {
  /// Applies `event` to `state`, laid out at `size`, and returns what it asks of the
  /// feature, the terminal or the loop.
  package static func update(
    _ state: inout ViewState, on event: AppEvent, size: TerminalSize
  ) -> [AppEffect] {
    switch event {
    case .key(let key):
      return update(&state, for: key, size: size).map { [$0] } ?? []
    case .model(let feature, let position, let now):
      return update(&state, feature: feature, position: position, now: now)
    case .tick(let tick):
      if state.feature.isLoading { state.spinnerFrame = tick }
      return []
    case .resized(let size):
      state.scroll = min(state.scroll, FactView.maximumScroll(for: state, size: size))
      return []
    case .backOffEnded:
      return [.rereadBackOff]
    }
  }

  /// A key: the prompt takes it while open; otherwise its binding's action.
  private static func update(
    _ state: inout ViewState, for key: Key, size: TerminalSize
  ) -> AppEffect? {
    if var prompt = state.prompt, key != .control("c") {
      switch prompt.handle(key) {
      case .editing:
        state.prompt = prompt
        return nil
      case .cancelled:
        state.prompt = nil
        return nil
      case .submitted(let number):
        state.prompt = nil
        return .goTo(number)
      }
    }
    guard let action = KeyMap.action(for: key) else { return nil }
    switch action {
    case .scrollDown, .scrollUp:
      // Within what there is to scroll at this size.
      let limit = FactView.maximumScroll(for: state, size: size)
      let scroll = min(state.scroll, limit)
      state.scroll = action == .scrollDown ? min(scroll + 1, limit) : max(0, scroll - 1)
      return nil
    default:
      state.scroll = 0
    }
    if action != .toggleHelp { state.showsHelp = false }
    state.notice = nil
    switch action {
    case .typeNumber:
      // A digit opens the prompt and is its first character; `g` opens it empty.
      if case .character(let digit) = key, digit.isWholeNumber {
        state.prompt = NumberPrompt(String(digit))
      } else {
        state.prompt = NumberPrompt()
      }
      return nil
    case .toggleHelp:
      state.showsHelp.toggle()
      return nil
    case .copyFact:
      guard let fact = state.feature.fact else {
        state.notice = "No fact to copy yet: f gets one."
        return nil
      }
      state.notice = "Copied the fact to the clipboard."
      return .copy(FactView.plainText(of: fact))
    case .scrollDown, .scrollUp:
      return nil
    default:
      return .perform(action)
    }
  }

  /// The feature as it is now: a new fact goes back to the top of the body, ends the notice
  /// and fixes the time its age is told against; loading starts and stops the spinner; a
  /// new back-off time is watched.
  private static func update(
    _ state: inout ViewState, feature: NumberFactFeature.State, position: HistoryPosition?,
    now: Date
  ) -> [AppEffect] {
    var effects: [AppEffect] = []
    if feature.fact != state.feature.fact {
      state.scroll = 0
      state.now = feature.fact?.source == .stored ? now : nil
      state.notice = nil
    }
    if feature.isLoading != state.feature.isLoading {
      if feature.isLoading {
        effects.append(.startSpinner)
      } else {
        state.spinnerFrame = 0
        effects.append(.stopSpinner)
      }
    }
    if feature.offlineUntil != state.feature.offlineUntil {
      effects.append(.watchBackOff(until: feature.offlineUntil))
    }
    state.feature = feature
    state.historyPosition = position
    return effects
  }
}
