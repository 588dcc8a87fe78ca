import Dependencies
import Foundation
import IssueReporting

/// Fetches facts about numbers: a witness struct, so each implementation is a value.
///
/// - ``offline`` computes facts locally, for every `Int`, with no network.
/// - ``fallingBack(from:host:to:policy:clock:)`` puts offline facts behind another client
///   when the network fails.
/// - `live(baseURL:timeout:)` and `auto(baseURL:timeout:)`, in FactClientLive, ask
///   numbersapi.com over HTTP.
///
/// Use it through `@Dependency(\.numberFact)`; tests replace it with a controlled client.
///
/// The operations run on the caller's actor (`nonisolated(nonsending)`) until they suspend,
/// so a fact at hand, stored or computed, reaches a main-actor caller with no thread switch;
/// a network request still does its I/O elsewhere.
package struct NumberFactClient: Sendable {
  /// Returns a fact of the given kind about `number`.
  ///
  /// Throws ``NumberFactError`` for failures a person should read, and `CancellationError`
  /// when the calling task is cancelled.
  package var fact:
    nonisolated(nonsending) @Sendable (_ number: Int, _ kind: FactKind) async throws -> NumberFact

  /// Returns a fact of the given kind about a number the client picks, within `range` when
  /// one is given; the fact's `number` says which.
  package var random:
    nonisolated(nonsending) @Sendable (_ kind: FactKind, _ range: ClosedRange<Int>?) async throws
      -> NumberFact

  /// Returns a fact of the given kind about each of `numbers`, in the same order.
  package var facts:
    nonisolated(nonsending) @Sendable (_ numbers: [Int], _ kind: FactKind) async throws
      -> [NumberFact]

  /// Ends a fallback's back-off, so the next request asks the server; for the other clients,
  /// nothing.
  package var askNetworkNow: @Sendable () -> Void

  /// How long a fallback will answer offline without asking the server; `nil` when it is
  /// not in a back-off, and always for the other clients.
  package var backOffRemaining: @Sendable () -> Duration?

  /// Creates a client from its operations.
  ///
  /// - Parameters:
  ///   - fact: One fact about one number.
  ///   - random: A fact about a random number. By default, a number drawn from the range
  ///     (or ``FactKind/randomRange``) with the system's generator, then `fact`.
  ///   - facts: Facts about several numbers. By default, `fact` for each, one after another.
  ///   - askNetworkNow: Ends a back-off; by default nothing.
  ///   - backOffRemaining: What is left of a back-off; by default always `nil`.
  package init(
    fact:
      nonisolated(nonsending) @escaping @Sendable (_ number: Int, _ kind: FactKind) async throws
      -> NumberFact,
    random: (
      nonisolated(nonsending) @Sendable (_ kind: FactKind, _ range: ClosedRange<Int>?) async throws
        -> NumberFact
    )? = nil,
    facts: (
      nonisolated(nonsending) @Sendable (_ numbers: [Int], _ kind: FactKind) async throws
        -> [NumberFact]
    )? = nil,
    askNetworkNow: @escaping @Sendable () -> Void = {},
    backOffRemaining: @escaping @Sendable () -> Duration? = { nil }
  ) {
    self.fact = fact
    self.askNetworkNow = askNetworkNow
    self.backOffRemaining = backOffRemaining
    self.random =
      random ?? { kind, range in
        try await fact(Int.random(in: range ?? kind.randomRange), kind)
      }
    self.facts =
      facts ?? { numbers, kind in
        var facts: [NumberFact] = []
        facts.reserveCapacity(numbers.count)
        for number in numbers {
          try Task.checkCancellation()
          facts.append(try await fact(number, kind))
        }
        return facts
      }
  }
}

extension FactKind {
  /// Where a random fact's number comes from when no range is given: the days of a leap
  /// year for dates, years since 1 AD for years, 0 to 1,000 otherwise.
  package var randomRange: ClosedRange<Int> {
    switch self {
    case .date: 1...366
    case .year: 1...2025
    case .trivia, .math: 0...1_000
    }
  }
}

extension NumberFactClient {
  /// Facts computed locally: deterministic, instant, for every `Int` and kind. Random
  /// numbers come from the system's generator.
  package static let offline = offline(random: { Int.random(in: $0) })

  /// Facts computed locally, with random numbers drawn by `random`: pass a seeded draw and a
  /// test's random facts are the same every run.
  ///
  /// - Parameter random: Returns a number in the range it is given.
  package static func offline(random: @escaping @Sendable (ClosedRange<Int>) -> Int) -> Self {
    Self(
      fact: { number, kind in OfflineFacts.fact(number, kind) },
      random: { kind, range in
        let range = range ?? kind.randomRange
        let number = min(max(random(range), range.lowerBound), range.upperBound)
        return OfflineFacts.fact(number, kind)
      },
      facts: { numbers, kind in
        try numbers.map { number in
          try Task.checkCancellation()
          return OfflineFacts.fact(number, kind)
        }
      })
  }
}

// The live value is in FactClientLive, so that linking this interface links no networking.
extension NumberFactClient: TestDependencyKey {
  /// Previews get instant, deterministic offline facts.
  package static let previewValue = Self.offline

  /// Fails the test that reaches it: a test must say which facts it expects.
  package static let testValue = Self { number, kind in
    reportIssue(
      """
      Unimplemented: @Dependency(\\.numberFact).fact(\(number), .\(kind)) was called. \
      Override it in the test, for example with a controlled client or .offline.
      """)
    throw UnimplementedFactError()
  }
}

extension DependencyValues {
  /// The client that fetches facts about numbers.
  package var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}
