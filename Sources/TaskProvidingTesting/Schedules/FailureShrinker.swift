/// Shrinks a failing schedule to the fewest departures from the default order that still
/// fail the same way, then the smallest options: the schedule a person reads is then the
/// race itself, not the noise around it.
///
/// First, for a schedule that departs often (a strategy such as PCT that runs one task ahead
/// through a loop of yields departs at every step), the schedules nearest the default order
/// are searched, every order with at most ``nearby`` departures, for one that fails the
/// same way: a departure is a place among the decisions, so the one that matters is often at
/// a place the failing schedule never departed at, and no subset of its departures reaches
/// it. Then, as delta debugging does: drop runs of departures, halves first, down to single
/// ones, then lower the options that are left (``TrapCandidates``), starting over from the
/// new schedule each time a candidate still fails with the same kind of failure nearer the
/// default order. Removing a departure can move the decisions after it, so every candidate
/// is run leniently (an option that is no longer there becomes the default) and what it
/// actually did replaces the best so far. One candidate a step, as a search runs one
/// schedule a step.
@MainActor
struct FailureShrinker {
  let context: ExplorationContext
  /// Schedules it may run after the search near the default order, which runs at most
  /// ``nearbySchedules`` of its own; a few hundred is ample for the departures a bug needs.
  var budget = 300
  /// The failure every candidate must fail with.
  private let kind: ScheduleFailure.Kind?
  /// The nearest schedule to the default order found so far that fails that way.
  private(set) var best: ScheduleRun
  /// The candidates of ``best`` not tried yet, in order.
  private var candidates: ArraySlice<[ReplayString.Departure]>
  /// The search of the schedules nearest the default order, while it is under way.
  private var nearest: ExhaustiveStrategy?

  /// Departures the search near the default order allows, and schedules it may run.
  static let nearby = 2
  static let nearbySchedules = 200

  init(context: ExplorationContext, failing: ScheduleRun, strategy: ExplorationStrategy) {
    self.context = context
    self.kind = failing.failure?.kind
    self.best = failing
    self.candidates = TrapCandidates.of(failing.departures)[...]
    if failing.jobDepartures > Self.nearby {
      nearest = ExhaustiveStrategy(
        strategy, limit: Self.nearbySchedules, cap: Self.nearby, reduces: true)
    }
  }

  /// The candidate under way, kept between two steps while it waits for outside work.
  private var underWay: ScheduleUnderWay<ReplayDecider>?

  /// Where shrinking stands after a step.
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
    if let search = nearest {
      switch search.step(context, waiting: blocks) {
      case .waiting(let work): return .waiting(work)
      case .searching: return .trying
      case .finished:
        nearest = nil
        return .trying
      case .found(let run, _):
        nearest = nil
        if run.failure?.kind == kind, run.departureCount < best.departureCount {
          best = run
          candidates = TrapCandidates.of(run.departures)[...]
        }
        return .trying
      }
    }
    let schedule: ScheduleUnderWay<ReplayDecider>
    if let underWay {
      schedule = underWay
    } else {
      guard let candidate = candidates.popFirst() else { return .done }
      budget -= 1
      schedule = ScheduleUnderWay(
        of: context, decider: ReplayDecider(candidate, lenient: true), narrate: false)
    }
    guard let run = schedule.advance(waiting: blocks) else {
      underWay = schedule
      return schedule.outsideWork.map(Step.waiting) ?? .trying
    }
    underWay = nil
    if run.failure?.kind == kind,
      TrapCandidates.improves(run.departures, on: best.departures)
    {
      best = run
      candidates = TrapCandidates.of(run.departures)[...]
    }
    return budget <= 0 || candidates.isEmpty ? .done : .trying
  }
}
