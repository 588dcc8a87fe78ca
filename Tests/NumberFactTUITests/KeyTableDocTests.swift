import Foundation
import NumberFactTUI
import Testing

/// docs/app.md's table of keys, read against the key bindings: every key the app binds is in
/// the table, and every key the table names is bound, so the two cannot drift apart.
@Suite struct KeyTableDocTests {
  static let root = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The first cell of each row of the table headed "| Keys | What they do |".
  static func keyCells() throws -> [String] {
    let text = try String(contentsOf: root.appending(path: "docs/app.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let header = try #require(lines.firstIndex { $0.hasPrefix("| Keys | What they do |") })
    return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map {
      String($0.split(separator: "|", omittingEmptySubsequences: false)[1])
    }
  }

  /// The key as the table names it.
  static func name(of key: Key) -> String {
    switch key {
    case .character(" "): "Space"
    case .character(let character): "`\(character)`"
    case .control(let letter): "Ctrl-\(letter.uppercased())"
    case .up: "Up"
    case .down: "Down"
    case .left: "Left"
    case .right: "Right"
    case .enter: "Enter"
    case .escape: "Esc"
    case .backspace: "Backspace"
    case .tab: "Tab"
    case .pageUp: "PageUp"
    case .pageDown: "PageDown"
    case .home: "Home"
    case .end: "End"
    case .function(let number): "F\(number)"
    default: "\(key)"
    }
  }

  /// The digits are one range in the table, "`0`–`9`".
  static func isNamed(_ name: String, in cells: [String]) -> Bool {
    if name.count == 3, let digit = name.dropFirst().first, digit.isNumber {
      return cells.contains { $0.contains("`0`–`9`") }
    }
    return cells.contains { cell in
      cell.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "," }).contains {
        $0 == name
      }
    }
  }

  @Test func everyBoundKeyIsInTheTable() throws {
    let cells = try Self.keyCells()
    #expect(cells.count >= 10)
    for binding in KeyBindings.app {
      for (key, _) in binding.keys {
        let name = Self.name(of: key)
        #expect(Self.isNamed(name, in: cells), "\(name) (\(binding.summary)) is not in docs/app.md")
      }
    }
  }

  @Test func everyKeyInTheTableIsBound() throws {
    let bound = Set(
      KeyBindings.app.flatMap { $0.keys.map { Self.name(of: $0.key) } }
        + KeyBindings.prompt.flatMap { $0.keys.map { Self.name(of: $0.key) } })
    for cell in try Self.keyCells() {
      for word in cell.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "," }) {
        let name = String(word)
        guard name.hasPrefix("`") || name.hasPrefix("Ctrl-") else { continue }
        guard name != "`0`–`9`" else { continue }
        #expect(bound.contains(name), "docs/app.md names \(name), which no binding binds")
      }
    }
  }
}
