/// A key press as the app sees it, independent of the terminal library.
package enum Key: Hashable, Sendable {
  /// A printable character.
  case character(Character)
  /// A letter pressed with Control: `.control("c")` is Ctrl-C.
  case control(Character)
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// Enter or Return.
  case enter
  /// Escape on its own.
  case escape
  /// Backspace.
  case backspace
  /// Tab.
  case tab
  /// Page Up.
  case pageUp
  /// Page Down.
  case pageDown
  /// Home.
  case home
  /// End.
  case end
  /// A function key, `F1` is `.function(1)`.
  case function(Int)
  /// A key the app has no name for, with the terminal library's code.
  case other(Int)
}

extension Key {
  /// The key a terminal reports for `scalar` typed: Enter for a carriage return or a line
  /// feed, Escape, Backspace for DEL or BS, Tab, Ctrl and a letter for the other C0
  /// controls, and the character itself otherwise. The real terminal and the virtual one
  /// both decode through it, so a test types what a person would.
  package init(typed scalar: Unicode.Scalar) {
    switch scalar.value {
    case 3: self = .control("c")
    case 9: self = .tab
    case 10, 13: self = .enter
    case 27: self = .escape
    case 8, 127: self = .backspace
    case 1...26: self = .control(Character(Unicode.Scalar(scalar.value + 96)!))
    case 0, 28...31: self = .other(Int(scalar.value))
    default: self = .character(Character(scalar))
    }
  }
}

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

/// The app's keys: what each key does, read from ``KeyBindings/app``.
package enum KeyMap {
  /// The action for `key`, or `nil` for a key the app ignores.
  package static func action(for key: Key) -> Action? {
    KeyBindings.actions[key]
  }

  /// The keys of each action, as the help screen lists them.
  package static var help: [(keys: String, action: String)] {
    KeyBindings.app.map { ($0.names, $0.summary) }
  }
}
