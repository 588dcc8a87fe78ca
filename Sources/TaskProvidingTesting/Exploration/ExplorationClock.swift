import LockSupport
import TaskProviding

/// A clock whose time moves only when an exploration moves it.
///
/// Every ``Exploration`` has one, ``Exploration/clock``; with swift-dependencies it is also
/// installed as `@Dependency(\.continuousClock)` and `@Dependency(\.suspendingClock)`. A
/// sleep on it suspends until the explorer advances the clock to its deadline, which the
/// explorer offers as a choice only once no job can run: work that is ready always runs
/// before time passes. An answer to an open call, or the person's next action, may come
/// before or after the clock moves; the explorer tries both.
///
/// A sleep on any other clock, `Task.sleep` included, keeps real time: inject a clock into
/// the code under test (`any Clock<Duration>`) to explore what it does with time.
public final class ExplorationClock: Clock, Sendable {
  /// A point on the clock: the time since the schedule began.
  public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
    /// How long after the start of the schedule.
    public var offset: Duration

    /// The point `offset` after the start of the schedule.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The point `duration` later, saturating at the largest and smallest durations.
    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset.saturatingAdd(duration))
    }

    /// How long from this point to `other`, saturating.
    public func duration(to other: Self) -> Duration {
      other.offset.saturatingSubtract(offset)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The time since the start of the schedule: "5.0 seconds".
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var nextID = 0
    var cancelled: Set<Int> = []
  }

  private let state = Locked(State())

  /// A clock at the start of time, with no one asleep on it.
  public init() {}

  /// The current time: the deadline of the last sleep the explorer woke.
  public var now: Instant { state.withLock { $0.now } }

  /// Zero: a sleep ends exactly at its deadline.
  public var minimumResolution: Duration { .zero }

  /// Suspends until the clock reaches `deadline`, or throws `CancellationError` when the
  /// task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = state.withLock { state in
          if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          // Not asleep yet: the continuation body sees this and throws at once.
          state.cancelled.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// The earliest deadline anyone sleeps until, and how many sleep until then.
  var nextWake: (deadline: Instant, sleepers: Int)? {
    state.withLock { state in
      guard let earliest = state.sleepers.map(\.deadline).min() else { return nil }
      return (earliest, state.sleepers.count(where: { $0.deadline == earliest }))
    }
  }

  /// Moves the clock to `deadline` and wakes every sleep that ends by then.
  func advance(to deadline: Instant) {
    advance { _ in deadline }
  }

  /// Moves the clock by `duration` and ends every sleep whose deadline it reaches, earliest
  /// first, before it returns; a negative duration does not move it. The package's own tests
  /// move a clock by hand with it, outside any exploration: the one manual clock there is.
  package func advance(by duration: Duration) {
    advance { $0.advanced(by: max(duration, .zero)) }
  }

  /// How many sleeps are under way: begun, and neither ended nor cancelled.
  package var sleepers: Int { state.withLock { $0.sleepers.count } }

  /// Moves the clock to where `target` says from where it stands, never back, and wakes
  /// every sleep that ends by then, in the order of their deadlines.
  private func advance(_ target: (Instant) -> Instant) {
    let woken = state.withLock { state -> [Sleeper] in
      state.now = max(state.now, target(state.now))
      let now = state.now
      let woken = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return woken
    }
    for sleeper in woken.sorted(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) }) {
      sleeper.continuation.resume()
    }
  }

  /// Ends every sleep with `CancellationError`: what a schedule's clean-up does, so no task
  /// stays suspended on a clock nobody will move again.
  func cancelAll() {
    let sleepers = state.withLock { state -> [Sleeper] in
      defer { state.sleepers.removeAll() }
      return state.sleepers
    }
    for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
  }
}

extension Duration {
  // A deadline far in the future (`.seconds(Int64.max)` and beyond) must not trap.
  fileprivate func saturatingAdd(_ other: Duration) -> Duration {
    let (sum, overflow) = attoseconds.addingReportingOverflow(other.attoseconds)
    guard overflow else { return Self(attoseconds: sum) }
    return other.attoseconds > 0 ? Self(attoseconds: .max) : Self(attoseconds: .min)
  }

  fileprivate func saturatingSubtract(_ other: Duration) -> Duration {
    let (difference, overflow) = attoseconds.subtractingReportingOverflow(other.attoseconds)
    guard overflow else { return Self(attoseconds: difference) }
    return other.attoseconds < 0 ? Self(attoseconds: .max) : Self(attoseconds: .min)
  }
}
