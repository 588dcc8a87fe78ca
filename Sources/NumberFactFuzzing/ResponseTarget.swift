import FactClient
import Foundation

/// The first byte picks the form (one fact, a batch, a random fact) and the kind; the rest
/// is the body the server sent.
enum ResponseTarget {
  static func run(_ input: Data) {
    guard let first = input.first else { return }
    let kind = FactKind.allCases[Int(first) % FactKind.allCases.count]
    let body = Data(input.dropFirst())
    switch first / 64 {
    case 0:
      guard let fact = try? FactResponse.fact(body, number: 42, kind: kind) else { return }
      check(fact, number: 42, kind: kind, body)
    case 1:
      let numbers = [1, 2, 3, 42, -7, Int.max]
      guard let facts = try? FactResponse.batch(body, numbers: numbers, kind: kind) else {
        return
      }
      if facts.count > numbers.count { violated(.response, "more facts than numbers", body) }
      for fact in facts {
        if !numbers.contains(fact.number) { violated(.response, "a number not asked", body) }
        check(fact, number: fact.number, kind: kind, body)
      }
    default:
      guard let number = FactResponse.number(body),
        let fact = try? FactResponse.fact(body, number: number, kind: kind)
      else { return }
      check(fact, number: number, kind: kind, body)
    }
  }

  /// What every decoded fact holds: the number and kind asked, and text that is clean.
  private static func check(_ fact: NumberFact, number: Int, kind: FactKind, _ body: Data) {
    if fact.number != number || fact.kind != kind {
      violated(.response, "another number or kind than asked", body)
    }
    if fact.text.isEmpty { violated(.response, "an empty text", body) }
    if FactText.sanitize(fact.text) != fact.text {
      violated(.response, "text that is not sanitized", body)
    }
  }
}
