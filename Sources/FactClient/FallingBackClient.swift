import LockSupport

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
