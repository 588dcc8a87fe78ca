/// The app's key handling, as one pure function: a key and the view state in, the new view
/// state and what else must happen out. No terminal, no model, no clock.
///
/// What the screen alone shows (the prompt, the help, a notice) changes here at once; what
/// the feature, the terminal or the app must do comes back as an ``AppEffect``.
package enum AppUpdate {
  /// Applies `key` to `state` and returns what it asks of the feature, the terminal or the
  /// app, if anything.
  package static func update(_ state: inout ViewState, for key: Key) -> AppEffect? {
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
    case .scrollDown:
      // The render loop holds it to what there is to scroll.
      state.scroll += 1
      return nil
    case .scrollUp:
      state.scroll = max(0, state.scroll - 1)
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
    case .increment: return .increment
    case .decrement: return .decrement
    case .stepUp: return .step(100)
    case .stepDown: return .step(-100)
    case .getFact: return .getFact
    case .random: return .random
    case .askNetwork: return .askNetwork
    case .cancel: return .cancel
    case .nextKind: return .nextKind
    case .previousFact: return .previousFact
    case .nextFact: return .nextFact
    case .oldestFact: return .oldestFact
    case .newestFact: return .newestFact
    case .scrollDown, .scrollUp: return nil
    case .suspend: return .suspend
    case .repaint: return .repaint
    case .quit: return .quit
    }
  }
}
