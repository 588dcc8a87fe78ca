import ConcurrencyBugCatalog
import Foundation
import Testing

/// The catalog's counts as the docs write them, read against the catalog: each count next to
/// a section's words ("eleven classic", "thirteen that shipped", "three that sleep", "two
/// that trap") and each total ("27 bugs") is the number of entries there, so a bug added to
/// the catalog fails here until the docs say so.
@Suite struct CatalogCountDocTests {
  static let root = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let words = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
  ]

  /// The number `word` says, as a word or in digits.
  static func number(_ word: String) -> Int? {
    Int(word) ?? words.firstIndex(of: word.lowercased())
  }

  /// The sections the docs count, by the words that follow a count.
  static let sections: [(phrase: String, count: Int)] = [
    ("classic", CatalogEntry.classic.count),
    ("are classics", CatalogEntry.classic.count),
    ("that shipped", CatalogEntry.fromTheField.count),
    ("shipped in public Swift projects", CatalogEntry.fromTheField.count),
    ("from the field", CatalogEntry.fromTheField.count),
    ("in code that sleeps", CatalogEntry.sleeping.count),
    ("that sleep", CatalogEntry.sleeping.count),
    ("sleep with plain", CatalogEntry.sleeping.count),
    ("that trap", CatalogEntry.trapping.count),
    ("entries trap", CatalogEntry.trapping.count),
    ("bugs found", CatalogEntry.all.count),
    ("bugs Swift engineers hit", CatalogEntry.all.count),
    ("bugs of", CatalogEntry.all.count),
  ]

  static let documents = ["README.md", "docs/architecture.md", "docs/testing-async.md"]

  @Test(arguments: documents) func everyCountOfTheCatalogIsItsSize(document: String) throws {
    let text = try String(contentsOf: Self.root.appending(path: document), encoding: .utf8)
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    // Only what is said of the catalog: the paragraphs that name it, and the sentences after.
    var checked = 0
    for (phrase, count) in Self.sections {
      let pattern = try Regex("([A-Za-z]+|[0-9]+) \(phrase)\\b")
      for match in text.matches(of: pattern) {
        let context = text[..<match.range.lowerBound].suffix(400)
        guard context.contains("atalog") || context.contains("CatalogTests") else { continue }
        guard let said = match.output[1].substring.map({ Self.number(String($0)) }) ?? nil
        else { continue }
        checked += 1
        #expect(
          said == count, "\(document): \"\(text[match.range])\" where the catalog has \(count)")
      }
    }
    #expect(checked > 0, "\(document) says no count of the catalog")
  }
}
