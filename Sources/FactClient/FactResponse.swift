import Foundation

/// Reads the fact server's answers: a fact, a batch of facts, and the number of a random
/// fact. Pure and without networking, so the decoding is fuzzed on its own.
package enum FactResponse {
  /// Reads a numbersapi JSON answer about `number`.
  package static func fact(_ body: Data, number: Int, kind: FactKind) throws -> NumberFact {
    guard !body.isEmpty else { throw NumberFactError.malformedResponse(reason: "empty body") }
    let answer: Answer
    do {
      answer = try JSONDecoder().decode(Answer.self, from: repaired(body))
    } catch {
      throw NumberFactError.malformedResponse(reason: "not a JSON fact")
    }
    return try answer.fact(number: number, kind: kind)
  }

  /// Reads a batch answer: an object keyed by number, each value a fact object (or, from
  /// servers that ignore `json`, the text alone).
  package static func batch(_ body: Data, numbers: [Int], kind: FactKind) throws -> [NumberFact] {
    guard !body.isEmpty else { throw NumberFactError.malformedResponse(reason: "empty body") }
    let answers: [String: BatchAnswer]
    do {
      answers = try JSONDecoder().decode([String: BatchAnswer].self, from: repaired(body))
    } catch {
      throw NumberFactError.malformedResponse(reason: "not a JSON batch of facts")
    }
    return try numbers.compactMap { number in
      try answers["\(number)"].map { try $0.answer.fact(number: number, kind: kind) }
    }
  }

  /// The `number` of a fact answer, when it is an integer in any of the shapes the server
  /// writes: 42, "42", 4.2e1.
  package static func number(_ body: Data) -> Int? {
    struct Numbered: Decodable {
      var number: Int?

      enum CodingKeys: CodingKey { case number }

      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let value = try? container.decode(Int.self, forKey: .number) {
          number = value
        } else if let text = try? container.decode(String.self, forKey: .number) {
          number = Int(text)
        } else if let value = try? container.decode(Double.self, forKey: .number),
          value == value.rounded(), let exact = Int(exactly: value)
        {
          number = exact
        }
      }
    }
    return (try? JSONDecoder().decode(Numbered.self, from: repaired(body)))?.number
  }

  /// Invalid UTF-8 becomes U+FFFD instead of failing the whole answer.
  private static func repaired(_ body: Data) -> Data {
    Data(String(decoding: body, as: UTF8.self).utf8)
  }

  /// One fact as the server writes it. Only `text` and `found` are read: `number` comes
  /// back as an integer, a string or a float depending on the number, and we know which
  /// number we asked for.
  struct Answer: Decodable {
    var text: String
    var found: Bool

    enum CodingKeys: CodingKey { case text, found }

    init(text: String, found: Bool) {
      self.text = text
      self.found = found
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      text = try container.decode(String.self, forKey: .text)
      found = (try? container.decode(Bool.self, forKey: .found)) ?? true
    }

    func fact(number: Int, kind: FactKind) throws -> NumberFact {
      let fact = NumberFact(number: number, kind: kind, text: text, found: found, source: .live)
      guard !fact.text.isEmpty else {
        throw NumberFactError.malformedResponse(reason: "empty text")
      }
      return fact
    }
  }

  /// A batch value: a fact object, or a bare string.
  struct BatchAnswer: Decodable {
    var answer: Answer

    init(from decoder: any Decoder) throws {
      if let text = try? decoder.singleValueContainer().decode(String.self) {
        answer = Answer(text: text, found: true)
      } else {
        answer = try Answer(from: decoder)
      }
    }
  }
}
