import Foundation
import NumberFactTUI

/// Each byte is a key: digits, `-`, Enter, Esc, Backspace, or another character.
enum PromptTarget {
  static func run(_ input: Data) {
    var prompt = NumberPrompt()
    for byte in input {
      let key: Key
      switch byte {
      case 0x0D: key = .enter
      case 0x1B: key = .escape
      case 0x7F: key = .backspace
      default: key = .character(Character(Unicode.Scalar(byte)))
      }
      let before = prompt.text
      let outcome = prompt.handle(key)
      let text = prompt.text
      if text.count > NumberPrompt.maximumLength {
        violated(.prompt, "longer than \(NumberPrompt.maximumLength)", input)
      }
      if text.dropFirst(text.hasPrefix("-") ? 1 : 0).contains(where: {
        !$0.isASCII || !$0.isWholeNumber
      }) {
        violated(.prompt, "a character other than digits after a sign: \(text)", input)
      }
      switch outcome {
      case .submitted(let number):
        if Int(before) != number { violated(.prompt, "Enter went to another number", input) }
        return
      case .cancelled:
        return
      case .editing:
        break
      }
    }
  }
}
