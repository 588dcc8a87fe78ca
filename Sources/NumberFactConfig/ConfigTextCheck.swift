/// A check of a config file's text before the TOML parser reads it. The parser stops the
/// process with an assertion on kinds of text that TOML does not allow, where it should
/// report an error:
/// - a character that is not ASCII outside quotes and comments (`[é`);
/// - a table header whose name starts with neither a key character nor a quote (`[:`);
/// - a `}` where an array's value goes (`i = [}`).
///
/// Each was found by fuzzing; see docs/reliability.md.
enum ConfigTextCheck {
  /// The first such problem in `text`: its line, from 1, and what is wrong.
  static func firstProblem(in text: String) -> (line: Int, message: String)? {
    enum State { case normal, comment, basic, literal, multilineBasic, multilineLiteral }
    let scalars = Array(text.unicodeScalars)
    var state = State.normal
    var line = 1
    var index = 0
    /// The open brackets and braces of the value being read: a `[` at a line's start inside
    /// a value is an array, not a table header.
    var open: [Unicode.Scalar] = []
    var atLineStart = true
    var inHeader = false
    func tripled(_ quote: Unicode.Scalar) -> Bool {
      index + 2 < scalars.count && scalars[index + 1] == quote && scalars[index + 2] == quote
    }
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\n" {
        line += 1
        // A comment or a one-line string ends at the line's end (an unclosed one is the
        // parser's to report).
        if state == .comment || state == .basic || state == .literal { state = .normal }
        if state == .normal {
          atLineStart = true
          inHeader = false
        }
        index += 1
        continue
      }
      switch state {
      case .normal:
        if !scalar.isASCII { return (line, "\(shown(scalar)) outside quotes: \(keyRule)") }
        if atLineStart, scalar != " ", scalar != "\t" {
          atLineStart = false
          if scalar == "[", open.isEmpty {
            inHeader = true
            var next = index + 1
            if next < scalars.count, scalars[next] == "[" { next += 1 }
            while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" {
              next += 1
            }
            if next < scalars.count, !startsKey(scalars[next]), scalars[next] != "]" {
              return (line, "\(shown(scalars[next])) starts a table name: \(keyRule)")
            }
            index = next
            continue
          }
        }
        switch scalar {
        case "#": state = .comment
        case "\"":
          state = tripled("\"") ? .multilineBasic : .basic
          if state == .multilineBasic { index += 2 }
        case "'":
          state = tripled("'") ? .multilineLiteral : .literal
          if state == .multilineLiteral { index += 2 }
        case "[", "{": if !inHeader { open.append(scalar) }
        case "]" where open.last == "[", "}" where open.last == "{": open.removeLast()
        case "}" where open.last == "[":
          return (line, "'}' (U+7D) in an array, where a value or ']' goes")
        default: break
        }
      case .comment:
        break
      case .basic:
        if scalar == "\\" {
          index += 1
        } else if scalar == "\"" {
          state = .normal
        }
      case .literal:
        if scalar == "'" { state = .normal }
      case .multilineBasic:
        if scalar == "\\" {
          // A backslash before the line's end joins lines; the newline is still counted.
          if index + 1 < scalars.count, scalars[index + 1] != "\n" { index += 1 }
        } else if scalar == "\"", tripled("\"") {
          state = .normal
          index += 2
        }
      case .multilineLiteral:
        if scalar == "'", tripled("'") {
          state = .normal
          index += 2
        }
      }
      index += 1
    }
    return nil
  }

  private static let keyRule =
    "keys are ASCII letters, digits, - and _, or in quotes, and text values go in quotes"

  /// Whether `scalar` may start a key: a bare key's character or a quote.
  private static func startsKey(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-", "_", "\"", "'": true
    default: false
    }
  }

  /// `scalar` as a message shows it: itself in quotes when it shows as itself, and its
  /// code point.
  private static func shown(_ scalar: Unicode.Scalar) -> String {
    let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
    let printable = scalar.isASCII ? (0x21...0x7E).contains(scalar.value) : !isHidden(scalar)
    return printable ? "'\(scalar)' (\(code))" : code
  }

  private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
      .privateUse, .surrogate, .unassigned, .nonspacingMark, .enclosingMark:
      true
    default: false
    }
  }
}
