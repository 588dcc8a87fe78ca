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

  /// The candidate under way, kept between two steps while it waits for outside work.
  private var underWay: ScheduleUnderWay<ReplayDecider>?

  /// Where a reduction stands after a step.
  enum Step {
    /// It tried a candidate, and has more to try.
    case trying
    /// Its candidate waits for a job from outside its scope.
    case waiting(OutsideWork)
    /// It is over: ``best`` is final.
    case done
  }

  /// Tries the candidate under way, or the next one, to its end; where it must wait for
  /// outside work, waits if `blocks`, else returns ``Step/waiting(_:)``.
  mutating func step(waiting blocks: Bool) -> Step {
    guard let kind, budget > 0 || underWay != nil else { return .done }
    let schedule: ScheduleUnderWay<ReplayDecider>
    if let underWay {
      schedule = underWay
    } else {
      guard !candidates.isEmpty else {
        // A pass of drops that kept none is followed by one of lowerings on the same
        // schedule; a pass of lowerings that kept none ends the reduction.
        guard case .drop = pass else { return .done }
        pass = .lower
        candidates = Self.lowering(best.departures)
        return candidates.isEmpty ? .done : .trying
      }
      budget -= 1
      schedule = ScheduleUnderWay(
        of: runner, decider: ReplayDecider(candidates.removeFirst(), lenient: true),
        narrate: false)
    }
    guard let run = schedule.advance(waiting: blocks) else {
      underWay = schedule
      return schedule.outsideWork.map(Step.waiting) ?? .trying
    }
    underWay = nil
    guard run.failure?.kind == kind else { return budget <= 0 ? .done : .trying }
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
    return budget <= 0 ? .done : .trying
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
