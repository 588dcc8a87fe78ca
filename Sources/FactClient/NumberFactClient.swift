import Dependencies
import Foundation
import IssueReporting
import LockSupport

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

/// Thrown by the unimplemented test client after it has reported the issue.
package struct UnimplementedFactError: Error, CustomStringConvertible {
  /// Creates the error.
  package init() {}

  package var description: String { "The fact client is not implemented in this test." }
}

extension DependencyValues {
  /// The client that fetches facts about numbers.
  package var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

/// When a client that fell back to offline facts asks the network again.
package struct FallbackPolicy: Sendable, Hashable {
  /// How long offline facts are given at once after the first transport failure.
  package var firstBackOff: Duration
  /// The longest back-off: each failed retry doubles it up to this.
  package var longestBackOff: Duration

  /// A policy; by default 15 s after the first failure, doubling to 4 minutes.
  package init(firstBackOff: Duration = .seconds(15), longestBackOff: Duration = .seconds(240)) {
    self.firstBackOff = firstBackOff
    self.longestBackOff = max(longestBackOff, firstBackOff)
  }
}

extension NumberFactClient {
  /// Puts `offline` behind `primary` for when the network fails, without making a person
  /// wait for a silent network on every request.
  ///
  /// The first failure of the network or of the server (``NumberFactError/fallsBack``: a
  /// transport failure or an HTTP 5xx) is answered from `offline`, with the reason in
  /// ``NumberFact/offlineReason``. For the back-off that follows, every request is answered
  /// from `offline` at once, without asking `primary`, and its reason says so: "not asked for
  /// another 12 s: at the last try, numbersapi.com did not answer in 5 s". The first request
  /// after it asks `primary` again: an answer ends the fallback; another failure starts a
  /// back-off twice as long, up to the policy's longest. ``askNetworkNow`` ends the back-off
  /// at once. A 4xx and a malformed answer are thrown, not papered over: the server is up and
  /// said something wrong, which a person should see.
  ///
  /// - Parameters:
  ///   - primary: The client to prefer, usually the live one.
  ///   - host: How reasons name the server ("numbersapi.com").
  ///   - offline: The stand-in.
  ///   - policy: The back-off.
  ///   - clock: What the back-off is measured on.
  package static func fallingBack(
    from primary: Self,
    host: String,
    to offline: Self = .offline,
    policy: FallbackPolicy = FallbackPolicy(),
    clock: any Clock<Duration> = ContinuousClock()
  ) -> Self {
    let fallback = Fallback(policy: policy, clock: clock)
    /// Runs `live`, or `stand-in` when the network is known to be down or fails now.
    @Sendable func attempt<T>(
      _ live: () async throws -> T, _ standIn: () async throws -> T,
      _ mark: (T, String) -> T
    ) async throws -> T {
      if let (failure, remaining) = fallback.reasonToSkip() {
        let reason =
          "not asked for another \(NumberFactError.wholeSeconds(remaining)): at the last try, "
          + failure.offlineReason(host: host)
        return mark(try await standIn(), reason)
      }
      do {
        let value = try await live()
        fallback.succeeded()
        return value
      } catch let error as NumberFactError where error.fallsBack {
        try Task.checkCancellation()
        fallback.failed(error)
        return mark(try await standIn(), error.offlineReason(host: host))
      }
    }
    let one = { @Sendable (fact: NumberFact, reason: String) in
      var fact = fact
      fact.offlineReason = reason
      return fact
    }
    return Self(
      fact: { number, kind in
        try await attempt(
          { try await primary.fact(number, kind) }, { try await offline.fact(number, kind) }, one)
      },
      random: { kind, range in
        try await attempt(
          { try await primary.random(kind, range) }, { try await offline.random(kind, range) },
          one)
      },
      facts: { numbers, kind in
        try await attempt(
          { try await primary.facts(numbers, kind) }, { try await offline.facts(numbers, kind) },
          { facts, reason in facts.map { one($0, reason) } })
      },
      askNetworkNow: { fallback.succeeded() },
      backOffRemaining: { fallback.reasonToSkip()?.1 })
  }
}

/// The state of one falling-back client: whether the network failed, and until when it is not
/// asked again. Any clock, so tests move time themselves.
private final class Fallback: Sendable {
  private struct State {
    var failure: NumberFactError?
    var retryAfter: Duration = .zero
    var backOff: Duration = .zero
  }

  private let policy: FallbackPolicy
  private let elapsed: @Sendable () -> Duration
  private let state = Locked(State())

  init(policy: FallbackPolicy, clock: some Clock<Duration>) {
    self.policy = policy
    let start = clock.now
    elapsed = { start.duration(to: clock.now) }
  }

  /// The failure to answer offline for at once, while its back-off runs, and how much of
  /// the back-off is left.
  func reasonToSkip() -> (NumberFactError, Duration)? {
    let now = elapsed()
    return state.withLock { state in
      guard let failure = state.failure, now < state.retryAfter else { return nil }
      return (failure, state.retryAfter - now)
    }
  }

  func succeeded() {
    state.withLock { $0 = State() }
  }

  func failed(_ error: NumberFactError) {
    let now = elapsed()
    state.withLock { state in
      // Halving instead of doubling keeps a policy near `Duration`'s largest from trapping.
      state.backOff =
        state.failure == nil || state.backOff > policy.longestBackOff / 2
        ? (state.failure == nil ? policy.firstBackOff : policy.longestBackOff)
        : state.backOff * 2
      state.failure = error
      state.retryAfter = now + state.backOff
    }
  }
}
