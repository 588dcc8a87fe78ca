import Foundation

/// What kind of fact to ask for about a number.
package enum FactKind: String, CaseIterable, Sendable {
  /// A general fact: "42 is the answer to life, the universe and everything."
  case trivia
  /// A mathematical property.
  case math
  /// A fact about a day of the year; the number is the day (1 to 366).
  case date
  /// A fact about a year; zero and negative numbers are years before 1 AD.
  case year

  /// The kind after this one, wrapping from the last to the first.
  package var next: FactKind {
    switch self {
    case .trivia: .math
    case .math: .date
    case .date: .year
    case .year: .trivia
    }
  }
}

/// Where a fact came from.
package enum FactSource: Hashable, Sendable {
  /// From the fact server.
  case live
  /// Computed locally, without the network.
  case offline
  /// Seen before and kept in the store: given again without asking the server. `host` says
  /// which server first gave it, ``NumberFact/seen`` when it was seen.
  case stored
}

/// A fact about a number.
package struct NumberFact: Hashable, Sendable {
  /// The number the fact is about: the one that was asked for.
  package var number: Int
  /// The kind of fact.
  package var kind: FactKind
  /// The fact, one line of text safe to print to a terminal: whatever is given is
  /// sanitized here, once (``FactText/sanitize(_:maximumLength:)``).
  package var text: String {
    get { sanitizedText }
    set { sanitizedText = FactText.sanitize(newValue) }
  }
  /// `false` when the server knows nothing special about the number and says so.
  package var found: Bool
  /// Where the fact came from.
  package var source: FactSource
  /// For a live fact, the host that served it ("numbersapi.com", "127.0.0.1:8080"),
  /// sanitized as ``text`` is.
  package var host: String? {
    get { sanitizedHost }
    set { sanitizedHost = newValue.map { FactText.sanitize($0) } }
  }
  /// For an offline fact given in place of a live one, why the server was not asked or did
  /// not answer, as a phrase ("numbersapi.com did not answer in 5 s", "no network"),
  /// sanitized as ``text`` is.
  package var offlineReason: String? {
    get { sanitizedOfflineReason }
    set { sanitizedOfflineReason = newValue.map { FactText.sanitize($0) } }
  }
  /// For a stored fact, when it was last seen.
  package var seen: Date?

  private var sanitizedText: String
  private var sanitizedHost: String?
  private var sanitizedOfflineReason: String?

  /// Creates a fact; its strings are sanitized.
  package init(
    number: Int, kind: FactKind, text: String, found: Bool = true, source: FactSource = .live,
    host: String? = nil, offlineReason: String? = nil, seen: Date? = nil
  ) {
    self.number = number
    self.kind = kind
    self.sanitizedText = FactText.sanitize(text)
    self.found = found
    self.source = source
    self.sanitizedHost = host.map { FactText.sanitize($0) }
    self.sanitizedOfflineReason = offlineReason.map { FactText.sanitize($0) }
    self.seen = seen
  }

  /// Where the fact came from, as the end of a line a person reads after "— ":
  /// "from numbersapi.com", "offline: no network", "offline fact, computed on this machine",
  /// "seen 3 days ago, from numbersapi.com (offline: no network)".
  package var sourceLine: String { sourceLine(now: Date()) }

  /// ``sourceLine``, with a stored fact's age measured to `now`.
  package func sourceLine(now: Date) -> String {
    switch source {
    case .live: "from \(host ?? "the fact server")"
    case .offline:
      offlineReason.map { "offline: \($0)" } ?? "offline fact, computed on this machine"
    case .stored:
      "\(SeenAge.phrase(seen: seen ?? now, now: now)), from \(host ?? "the fact server")"
        + (offlineReason.map { " (offline: \($0))" } ?? "")
    }
  }
}
