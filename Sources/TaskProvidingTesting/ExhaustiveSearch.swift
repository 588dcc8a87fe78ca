/// Every schedule, depth first, in rounds by how often the schedule departs from the default
/// order while a job is ready (iterative context bounding, as in CHESS; the bound plays the
/// part of loom's `LOOM_MAX_PREEMPTIONS`): first the schedules with no departure, then those
/// with one, and so on. Choices made while no job is ready are all explored in every round:
/// they are the scenario's own (its actions, answers and clock), and few.
///
/// Each schedule runs once. A round starts from the first steps that the schedules of the
/// rounds before it yield: each decision among ready jobs after a schedule's last departure,
/// with another awake option taken there (``oneDepartureMore(after:asleep:)``). Every
/// schedule with one departure more than its round's is one of them, followed by the
/// default order and any of the scenario's choices. The starts run in the order of their
/// picks, so the round numbers its schedules as a depth-first search of it would.
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
    /// Whether the schedule stopped at a decision where every option was asleep (it only
    /// reorders options of one explored before), or where the only awake ones would depart
    /// past `cap`.
    private(set) var isRedundant = false

    /// How many departures among ready jobs a schedule may take; `nil`: any number.
    let cap: Int?
    /// Departures among ready jobs taken so far.
    private var departures = 0

    init(prefix: [Int], reduces: Bool = true, cap: Int? = nil) {
      self.prefix = prefix
      self.reduces = reduces
      self.cap = cap
    }

    mutating func decide(_ decision: Decision) -> Int? {
      let followed = decision.index < prefix.count ? prefix[decision.index] : nil
      guard reduces else {
        asleep.append([])
        return taking(followed ?? 0, at: decision)
      }
      // Nothing asleep and the default taken: nothing to put to sleep either, so the options'
      // footprints, which most decisions of a schedule never need, are not worked out.
      if sleep.isEmpty, (followed ?? 0) == 0 {
        asleep.append([])
        return taking(0, at: decision)
      }
      let options = decision.options()
      // A sleep set holds a few options at most: a scan beats hashing them into a set.
      var here = Set<Int>()
      if !sleep.isEmpty {
        for index in options.indices where sleep.contains(where: { $0.key == options[index].key }) {
          here.insert(index)
        }
      }
      asleep.append(here)
      guard let pick = followed ?? options.indices.first(where: { !here.contains($0) }) else {
        isRedundant = true
        return nil
      }
      // The default is asleep, and any other job departs once more than the search allows:
      // whatever follows is outside the space asked for, so the schedule stops here.
      if followed == nil, pick != 0, decision.kind == .job, departures >= cap ?? .max {
        isRedundant = true
        return nil
      }
      guard pick < options.count else { return nil }
      let chosen = options[pick]
      sleep.removeAll { !$0.commutes(with: chosen) }
      for index in 0..<pick where !here.contains(index) && options[index].commutes(with: chosen) {
        sleep.append(options[index])
      }
      return taking(pick, at: decision)
    }

    private mutating func taking(_ pick: Int, at decision: Decision) -> Int {
      if decision.kind == .job, pick != 0 { departures += 1 }
      return pick
    }
  }

  /// The prefix of the schedule after `run` in this round, changing no decision before
  /// `floor` (the round's first steps, which name the schedules it explores), or `nil` when
  /// none is left: a decision's next option that is awake, where taking it adds no departure
  /// beyond the round's `allowed`.
  static func next(
    after run: ScheduleRun, asleep: [Set<Int>], departures allowed: Int, from floor: Int
  ) -> [Int]? {
    let decisions = run.decisions
    // Job departures before each decision, to see what one more would cost.
    var before = [Int](repeating: 0, count: decisions.count)
    var used = 0
    for (index, taken) in decisions.enumerated() {
      before[index] = used
      if taken.kind == .job, taken.pick != 0 { used += 1 }
    }
    for index in decisions.indices.reversed() where index >= floor {
      let taken = decisions[index]
      let sleeping = index < asleep.count ? asleep[index] : []
      guard
        let option = (taken.pick + 1..<taken.count).first(where: { !sleeping.contains($0) })
      else { continue }
      if taken.kind == .job, taken.pick == 0, before[index] >= allowed { continue }
      return decisions[..<index].map(\.pick) + [option]
    }
    return nil
  }

  /// The first steps of `run`'s orders with one job departure more, placed after its last:
  /// at each later decision among ready jobs, each other awake option.
  static func oneDepartureMore(after run: ScheduleRun, asleep: [Set<Int>]) -> [[Int]] {
    let decisions = run.decisions
    let last = decisions.lastIndex { $0.kind == .job && $0.pick != 0 } ?? -1
    var starts: [[Int]] = []
    for index in decisions.indices where index > last {
      let taken = decisions[index]
      guard taken.kind == .job, taken.pick == 0 else { continue }
      let sleeping = index < asleep.count ? asleep[index] : []
      for option in 1..<taken.count where !sleeping.contains(option) {
        starts.append(decisions[..<index].map(\.pick) + [option])
      }
    }
    return starts
  }
}
