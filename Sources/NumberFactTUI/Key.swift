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
