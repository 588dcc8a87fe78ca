/// Reduces a failing schedule to the fewest departures from the default order that still
/// fail the same way, then the smallest options: the schedule a person reads is then the
/// race itself, not the noise around it.
///
/// Greedy, as delta debugging is: drop one departure at a time, keeping each drop after which
/// the schedule still fails with the same kind of failure; then lower the options that are
/// left. Removing a departure can move the decisions after it, so every candidate is run
/// leniently (an option that is no longer there becomes the default) and what it actually
/// did replaces the best so far.
@MainActor
struct FailureShrinker {
  let runner: ScheduleRunner
  /// Schedules it may run; a few hundred is ample for the departures a bug needs.
  var budget = 300

  mutating func reduce(_ failing: ScheduleRun) -> ScheduleRun {
    guard let kind = failing.failure?.kind else { return failing }
    var best = failing
    var improved = true
    while improved, budget > 0 {
      improved = false
      let departures = best.departures
      for index in departures.indices.reversed() where budget > 0 {
        var candidate = departures
        candidate.remove(at: index)
        if let run = attempt(candidate, failingAs: kind), run.deviations < best.deviations {
          best = run
          improved = true
          break
        }
      }
      if improved { continue }
      for index in departures.indices where departures[index].option > 1 && budget > 0 {
        var candidate = departures
        candidate[index] = .init(decision: departures[index].decision, option: 1)
        if let run = attempt(candidate, failingAs: kind), run.deviations <= best.deviations,
          Self.weight(run) < Self.weight(best)
        {
          best = run
          improved = true
          break
        }
      }
    }
    return best
  }

  private mutating func attempt(
    _ departures: [ReplayString.Departure], failingAs kind: ScheduleFailure.Kind
  ) -> ScheduleRun? {
    budget -= 1
    var decider = ReplayDecider(departures, lenient: true)
    let run = runner.run(&decider)
    return run.failure?.kind == kind ? run : nil
  }

  /// How far a schedule's options are from the defaults, to prefer the nearer of two with as
  /// many departures.
  private static func weight(_ run: ScheduleRun) -> Int {
    run.decisions.reduce(0) { $0 + $1.pick }
  }
}
