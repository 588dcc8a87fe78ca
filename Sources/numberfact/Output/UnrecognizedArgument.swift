/// A word the app's parser does not know, and what to say about it: a number gets a word on
/// where numbers go, a near miss of an option or a subcommand gets its likely name.
struct UnrecognizedArgument {
  /// The app's options and the subcommands, for near misses.
  static let optionNames = [
    "--count", "--kind", "--source", "--base-url", "--timeout", "--print", "--no-store", "--help",
    "--version",
  ]
  static let subcommandNames = ["fact", "history", "app", "help"]

  /// The first of `arguments`; `nil` when there is none.
  let argument: String

  init?(_ arguments: [String]) {
    guard let first = arguments.first else { return nil }
    argument = first
  }

  /// One line, as the error the parser prints after "Error: ".
  var message: String {
    let unsigned = argument.hasPrefix("-") ? argument.dropFirst() : Substring(argument)
    if !unsigned.isEmpty, unsigned.allSatisfy(\.isASCII), unsigned.allSatisfy(\.isNumber) {
      return """
        '\(argument)' is not an option of the app. To start at \(argument): \
        numberfact --count \(argument); for its fact: numberfact fact \(argument)
        """
    }
    if argument.hasPrefix("-") {
      let option = String(argument.prefix { $0 != "=" })
      return "Unknown option '\(option)'." + suggestion(among: Self.optionNames, for: option)
    }
    return "Unexpected argument '\(argument)'."
      + suggestion(among: Self.subcommandNames, for: argument)
  }

  /// " Did you mean '…'?" for the closest of `names`, when it is close enough to be a slip.
  private func suggestion(among names: [String], for word: String) -> String {
    let scored = names.map { ($0, Self.distance(Array(word), Array($0))) }
    guard let (name, distance) = scored.min(by: { $0.1 < $1.1 }), distance <= 2 else {
      return ""
    }
    return " Did you mean '\(name)'?"
  }

  /// Edits (insertions, deletions, substitutions, swaps of neighbours) from `a` to `b`.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }
}
