import Foundation

/// A parser that takes text from outside, with the properties its output must have. Each
/// target reads one input and stops the process (a crash, which the fuzzer keeps) when a
/// property fails.
package enum FuzzTarget: String, CaseIterable, Sendable {
  /// `FactText.sanitize` and the display width of what it returns.
  case sanitizer
  /// The fact server's answers: one fact, a batch, a random fact's number.
  case response
  /// The number prompt, fed keys.
  case prompt
  /// The operands of `numberfact fact`: numbers, ranges and dates.
  case operand
  /// The config file.
  case config
  /// The exploration's replay string.
  case replay

  /// Runs the target on one input.
  package func run(_ input: Data) {
    switch self {
    case .sanitizer: SanitizerTarget.run(input)
    case .response: ResponseTarget.run(input)
    case .prompt: PromptTarget.run(input)
    case .operand: OperandTarget.run(input)
    case .config: ConfigTarget.run(input)
    case .replay: ReplayTarget.run(input)
    }
  }
}

/// Stops the process, naming the target and what failed: the fuzzer keeps the input.
func violated(
  _ target: FuzzTarget, _ property: String, _ input: some CustomDebugStringConvertible
) -> Never {
  fatalError("\(target.rawValue): \(property) for \(String(reflecting: input).prefix(500))")
}

extension Data {
  /// The input as text, with invalid UTF-8 repaired, as the app reads text from outside.
  var text: String { String(decoding: self, as: UTF8.self) }
}
