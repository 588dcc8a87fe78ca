import FactStore
import Foundation
import Testing

/// `history --search` matches as Foundation does, ignoring case and diacritics, on the fast
/// path for ASCII as on the general one.
@Suite struct HistorySearchTests {
  /// Letters and the four characters that sit just outside A–Z and a–z, where a fold by
  /// arithmetic would go wrong first.
  static let alphabet: [Character] = ["a", "A", "z", "Z", "@", "[", "`", "{"]

  static func strings(upTo length: Int) -> [String] {
    var all = [""]
    var last = [""]
    for _ in 0..<length {
      last = last.flatMap { prefix in alphabet.map { prefix + String($0) } }
      all += last
    }
    return all
  }

  @Test func asciiSearchesMatchAsFoundationDoes() {
    let texts = Self.strings(upTo: 3)
    var mismatches: [String] = []
    for search in Self.strings(upTo: 2).dropFirst() {
      let query = FactStore.HistoryQuery(search: search)
      for text in texts {
        let expected =
          text.range(of: search, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        if query.matches(text) != expected { mismatches.append("\(search) in \(text)") }
      }
    }
    #expect(mismatches.isEmpty)
  }

  @Test(arguments: [
    ("Café au lait", "CAFE", true),
    ("cafe", "café", true),
    ("Straße", "STRASSE", true),
    ("ﬁve", "five", true),
    ("naïve", "NAIVE", true),
    ("12 is a dozen", "DOZEN", true),
    ("12 is a dozen", "dozens", false),
    ("", "a", false),
    ("anything", "", true),
  ])
  func searchesIgnoreCaseAndDiacritics(_ text: String, _ search: String, _ expected: Bool) {
    #expect(FactStore.HistoryQuery(search: search).matches(text) == expected)
  }
}
