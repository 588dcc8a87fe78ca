/// The number a person is typing on the count line: digits, a minus sign, Backspace, Enter
/// to go there and Esc to give up. Pure: a key in, the new state and what it means out.
package struct NumberPrompt: Hashable, Sendable {
  /// What a key did to the prompt.
  package enum Outcome: Hashable, Sendable {
    /// Still typing.
    case editing
    /// Esc, or Backspace on an empty prompt: close it, change nothing.
    case cancelled
    /// Enter on a number that fits in an `Int`: go there.
    case submitted(Int)
  }

  /// What a key does to the prompt; ``KeyBindings/prompt`` binds them.
  package enum Edit: Hashable, Sendable {
    /// Types a digit.
    case digit
    /// Makes the number negative, or positive again.
    case negate
    /// Erases the last character; on an empty prompt, closes it.
    case erase
    /// Goes to the number.
    case submit
    /// Closes the prompt, changing nothing.
    case cancel
  }

  /// The most characters the prompt holds: `Int.min` has 20.
  package static let maximumLength = 20

  /// What has been typed: an optional minus sign, then digits.
  package private(set) var text: String
  /// Why the last key was refused, shown under the prompt until the next key.
  package private(set) var message: String?

  /// A prompt holding `text`, for a digit key that opens it.
  package init(_ text: String = "") {
    self.text = String(
      text.filter { $0.isASCII && ($0.isWholeNumber || $0 == "-") }.prefix(Self.maximumLength))
    message = nil
  }

  /// Applies `key`.
  package mutating func handle(_ key: Key) -> Outcome {
    message = nil
    switch KeyBindings.edits[key] {
    case .cancel:
      return .cancelled
    case .erase:
      guard !text.isEmpty else { return .cancelled }
      text.removeLast()
      return .editing
    case .submit:
      guard text.contains(where: \.isWholeNumber) else {
        message = "Type a number first, or Esc to cancel."
        return .editing
      }
      guard let number = Int(text) else {
        message = "Too large: a number here is from \(Int.min) to \(Int.max)."
        return .editing
      }
      return .submitted(number)
    case .negate:
      // A minus sign at the start makes the number negative; typed again it takes it away.
      if text.hasPrefix("-") {
        text.removeFirst()
      } else if text.count < Self.maximumLength {
        text = "-" + text
      }
      return .editing
    case .digit:
      guard case .character(let digit) = key else { return .editing }
      guard text.count < Self.maximumLength else {
        message = "At most \(Self.maximumLength) characters: no Int has more."
        return .editing
      }
      text.append(digit)
      return .editing
    case nil:
      message = "Only digits, and - for a negative number. Enter to go, Esc to cancel."
      return .editing
    }
  }
}
