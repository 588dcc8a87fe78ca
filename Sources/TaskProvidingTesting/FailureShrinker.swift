/// Reduces a failing schedule to the fewest departures from the default order that still
/// fail the same way, then the smallest options: the schedule a person reads is then the
/// race itself, not the noise around it.
///
/// Greedy, as delta debugging is: drop one departure at a time, keeping each drop after which
/// the schedule still fails with the same kind of failure; then lower the options that are
/// left. Removing a departure can move the decisions after it, so every candidate is run
/// leniently (an option that is no longer there becomes the default) and what it actually
/// did replaces the best so far. One candidate a step, as a search runs one schedule a step.
@MainActor
struct FailureShrinker {
  let runner: ScheduleRunner
  /// Schedules it may run; a few hundred is ample for the departures a bug needs.
  var budget = 300
  /// The failure every candidate must fail with.
  private let kind: ScheduleFailure.Kind?
  /// The nearest schedule to the default order found so far that fails that way.
  private(set) var best: ScheduleRun
  /// What the candidates left in this pass try.
  private var pass = Pass.drop
  private var candidates: [[ReplayString.Departure]] = []

  private enum Pass {
    /// Each departure left out, the last first.
    case drop
    /// Each option past the first lowered to the first, the earliest first.
    case lower
  }

  init(runner: ScheduleRunner, failing: ScheduleRun) {
    self.runner = runner
    self.kind = failing.failure?.kind
    self.best = failing
    self.candidates = Self.dropping(from: failing.departures)
  }

  /// Reduces at once, running every candidate.
  mutating func reduce() -> ScheduleRun {
    while !step() {}
    return best
  }

  /// Tries the next candidate; `true` once the reduction is over and ``best`` is final.
  mutating func step() -> Bool {
    guard let kind, budget > 0 else { return true }
    guard !candidates.isEmpty else {
      // A pass of drops that kept none is followed by one of lowerings on the same schedule;
      // a pass of lowerings that kept none ends the reduction.
      guard case .drop = pass else { return true }
      pass = .lower
      candidates = Self.lowering(best.departures)
      return candidates.isEmpty
    }
    let candidate = candidates.removeFirst()
    budget -= 1
    var decider = ReplayDecider(candidate, lenient: true)
    let run = runner.run(&decider)
    guard run.failure?.kind == kind else { return budget <= 0 }
    let kept =
      switch pass {
      case .drop: run.deviations < best.deviations
      case .lower: run.deviations <= best.deviations && Self.weight(run) < Self.weight(best)
      }
    if kept {
      best = run
      pass = .drop
      candidates = Self.dropping(from: run.departures)
    }
    return budget <= 0
  }

  private static func dropping(
    from departures: [ReplayString.Departure]
  ) -> [[ReplayString.Departure]] {
    departures.indices.reversed().map { index in
      var candidate = departures
      candidate.remove(at: index)
      return candidate
    }
  }

  private static func lowering(
    _ departures: [ReplayString.Departure]
  ) -> [[ReplayString.Departure]] {
    departures.indices.filter { departures[$0].option > 1 }.map { index in
      var candidate = departures
      candidate[index] = .init(decision: departures[index].decision, option: 1)
      return candidate
    }
  }

  /// How far a schedule's options are from the defaults, to prefer the nearer of two with as
  /// many departures.
  private static func weight(_ run: ScheduleRun) -> Int {
    run.decisions.reduce(0) { $0 + $1.pick }
  }
}
