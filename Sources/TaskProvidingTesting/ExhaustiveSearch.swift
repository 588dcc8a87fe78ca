/// Every schedule, depth first, in rounds by how often the schedule departs from the default
/// order while a job is ready (iterative context bounding, as in CHESS; the bound plays the
/// part of loom's `LOOM_MAX_PREEMPTIONS`): first the schedules with no departure, then those
/// with one, and so on. Choices made while no job is ready are all explored in every round:
/// they are the scenario's own (its actions, answers, task starts and clock), and few.
///
/// A round runs the schedules with fewer departures again on the way to the new ones; only
/// those with exactly the round's number count as new.
///
/// Sleep sets (Godefroid, 1996) leave out a schedule that only swaps two options that
/// commute (``OptionFootprint/commutes(with:)``): once the search has explored taking `a`
/// first at some point, it does not take `b` and then `a` where `a` and `b` commute, since
/// that leads where `a` then `b` did. Without a bound this keeps at least one schedule of
/// every class of equivalent ones; with a bound, the one it keeps may depart more often than
/// the ones it leaves out and fall in a later round.
enum ExhaustiveSearch {
  /// The decider that follows `prefix`, then takes the first option that is not asleep.
  struct Follower: ScheduleDecider {
    let prefix: [Int]
    /// Whether to keep sleep sets; without, every option is awake.
    let reduces: Bool
    /// Options explored earlier, here or above, that commute with everything taken since.
    private var sleep: [OptionFootprint] = []
    /// The options asleep at each decision so far, by their index.
    private(set) var asleep: [Set<Int>] = []
    /// Whether every option was asleep at some decision: the schedule only reorders options
    /// of one explored before, and stopped there.
    private(set) var isRedundant = false

    init(prefix: [Int], reduces: Bool = true) {
      self.prefix = prefix
      self.reduces = reduces
    }

    mutating func decide(_ decision: Decision) -> Int? {
      let followed = decision.index < prefix.count ? prefix[decision.index] : nil
      guard reduces else {
        asleep.append([])
        return followed ?? 0
      }
      let options = decision.options()
      let sleeping = Set(sleep.map(\.key))
      let here = Set(options.indices.filter { sleeping.contains(options[$0].key) })
      asleep.append(here)
      guard let pick = followed ?? options.indices.first(where: { !here.contains($0) }) else {
        isRedundant = true
        return nil
      }
      guard pick < options.count else { return nil }
      let chosen = options[pick]
      let done = options[..<pick].indices.filter { !here.contains($0) }.map { options[$0] }
      sleep = (sleep + done).filter { $0.commutes(with: chosen) }
      return pick
    }
  }

  /// The prefix of the schedule after `run` in this round, or `nil` when the round is over;
  /// `leftOut` becomes true if the bound kept an option from being taken.
  static func next(
    after run: ScheduleRun, asleep: [Set<Int>], departures allowed: Int, leftOut: inout Bool
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
      let sleeping = index < asleep.count ? asleep[index] : []
      guard
        let option = (taken.pick + 1..<taken.count).first(where: { !sleeping.contains($0) })
      else { continue }
      if taken.kind == .job, taken.pick == 0, before[index] >= allowed {
        leftOut = true
        continue
      }
      return decisions[..<index].map(\.pick) + [option]
    }
    return nil
  }
}
