/// Every schedule, depth first, in rounds by how often the order of jobs departs from
/// enqueue order: first the schedules with none, then those with one, and so on up to the
/// bound (iterative context bounding, as in CHESS; the bound plays the part of loom's
/// `LOOM_MAX_PREEMPTIONS`). Choices made while no job is ready are all explored in every
/// round: they are the scenario's own (its actions, answers, task starts and clock), and few.
///
/// A round runs the schedules with fewer departures again on the way to the new ones; only
/// those with exactly the round's number count as new.
struct ExhaustiveSearch {
  let bound: Int

  /// The decider that follows `prefix`, then takes every default.
  struct Follower: ScheduleDecider {
    let prefix: [Int]

    mutating func decide(_ decision: Decision) -> Int? {
      decision.index < prefix.count ? prefix[decision.index] : 0
    }
  }

  /// The prefix of the schedule after `run` in this round, or `nil` when the round is over;
  /// `leftOut` becomes true if the bound kept an option from being taken.
  static func next(
    after run: ScheduleRun, departures allowed: Int, leftOut: inout Bool
  ) -> [Int]? {
    let decisions = run.decisions
    // Job departures before each decision, to see what one more would cost.
    var before = [Int](repeating: 0, count: decisions.count)
    var used = 0
    for (index, taken) in decisions.enumerated() {
      before[index] = used
      if taken.kind == .job, taken.pick != 0 { used += 1 }
    }
    for index in decisions.indices.reversed() {
      let taken = decisions[index]
      guard taken.pick + 1 < taken.count else { continue }
      if taken.kind == .job, taken.pick == 0, before[index] >= allowed {
        leftOut = true
        continue
      }
      return decisions[..<index].map(\.pick) + [taken.pick + 1]
    }
    return nil
  }
}
