import ArgumentParser
import Dependencies
import FactClientLive
import FactStore
import Foundation
import NumberFactConfig
import NumberFactCore
import NumberFactTUI
import TaskProviding

// Repeated on purpose (docs/architecture.md): a wire format lists every field it carries.

/// The JSON form of a fact, for `numberfact fact --json`.
struct FactJSON: Encodable {
  var number: Int
  var kind: String
  var text: String
  var found: Bool
  var source: String
  var host: String?
  var offlineReason: String?
  /// For a stored fact, and in `history`: when it was seen, in ISO 8601.
  var seen: String?

  init(_ fact: NumberFact) {
    number = fact.number
    kind = fact.kind.rawValue
    text = fact.text
    found = fact.found
    source =
      switch fact.source {
      case .live: "live"
      case .offline: "offline"
      case .stored: "stored"
      }
    host = fact.host
    offlineReason = fact.offlineReason
    seen = fact.seen.map { $0.formatted(.iso8601) }
  }

  /// One line of JSON, keys sorted.
  static func encoded(_ value: some Encodable, with encoder: JSONEncoder = encoder()) throws
    -> String
  {
    String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// An encoder for one line of JSON, keys sorted; one serves any number of values.
  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
