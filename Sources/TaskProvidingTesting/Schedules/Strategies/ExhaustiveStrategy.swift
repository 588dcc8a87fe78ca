/// Every schedule, depth first, in rounds by how often the schedule departs from the default
/// order while a job is ready (iterative context bounding, as in CHESS; the bound plays the
/// part of loom's `LOOM_MAX_PREEMPTIONS`): first the schedules with no departure, then those
/// with one, and so on. Choices made while no job is ready are all explored in every round:
/// they are the scenario's own (its actions, answers and clock), and few.
///
/// Each schedule runs once. A round starts from the first steps that the schedules of the
/// rounds before it yield: each decision among ready jobs after a schedule's last departure,
/// with another awake option taken there (``oneDepartureMore(after:asleep:awakeBase:)``). Every
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
final class ExhaustiveStrategy: ScheduleStrategy {
  let strategy: ExplorationStrategy
  /// Schedules to run at most.
  let limit: Int
  /// Departures a schedule may take at most; `nil`: any number.
  let cap: Int?
  /// Whether to keep sleep sets; off only to measure what they save.
  let reduces: Bool
  /// What each job did, when the search assumes no state is shared but what the scope sees.
  private let store: JobRecordStore?
  var underWay: ScheduleUnderWay<Follower>?

  /// Schedules counted so far, in the order a depth-first search of each round meets them.
  private var schedules = 0
  /// Schedules run, counted or not.
  private var runs = 0
  /// The last round run to its end.
  private var bound: Int?
  /// The round under way: how many departures its schedules take.
  private var round = 0
  /// The round's first steps, in the order of their picks, and how many have been taken.
  private var starts: [[Int]] = [[]]
  private var nextStart = 0
  /// The first steps of the schedules under way, the prefix of the next one to run, and the
  /// decisions the run that prefix comes from met along it.
  private var current: (start: [Int], prefix: [Int], shape: ArraySlice<ScheduleDivergence.Shape>)?
  /// For each first step of a later round, the decisions the run it comes from met.
  private var startShapes: [[Int]: ArraySlice<ScheduleDivergence.Shape>] = [:]
  /// The first schedule that went another way than the run its prefix comes from, and how
  /// many did.
  private var divergence: ScheduleDivergence?
  private var diverged = 0
  /// First steps of later rounds, by round.
  private var later: [Int: Set<[Int]>] = [:]
  /// Schedules the sleep sets forced to depart more often than their round: each counts in
  /// the round of its departures, where a depth-first search of that round would meet it.
  private var early: [Int: Set<[Int]>] = [:]
  /// Of those, the ones of the round under way not counted yet, in the order of their picks.
  private var waiting: ArraySlice<[Int]> = []
  private var counted = Set<[Int]>()

  init(
    _ strategy: ExplorationStrategy, limit: Int, cap: Int?, reduces: Bool,
    reduction: ExplorationReduction = .whereCertain
  ) {
    self.strategy = strategy
    self.limit = max(limit, 1)
    self.cap = cap.map { max($0, 0) }
    self.reduces = reduces
    store = reduction == .assumingNoHiddenSharing ? JobRecordStore() : nil
  }

  /// Rounds of growing bound on departures (0, 1, 2, …) until no order is left for the next
  /// round, `cap` is reached or `limit` schedules have run.
  ///
  /// Each schedule runs once. Round 0 runs every order of the scenario's choices with no
  /// departure; each schedule a round runs yields the first steps of its orders with one
  /// departure more (``oneDepartureMore(after:asleep:awakeBase:)``), which the next round runs, choices
  /// and all, in the order of their picks, so that schedules are numbered as a depth-first
  /// search of each round would number them. Running a round afresh from the empty prefix
  /// would run every schedule of the rounds before it again.
  func next() -> NextSchedule<Follower> {
    while current == nil {
      if nextStart < starts.count {
        let start = starts[nextStart]
        current = (start, start, startShapes.removeValue(forKey: start) ?? [])
        nextStart += 1
      } else if let ended = endRound() {
        return .finished(ended)
      }
    }
    return .run(
      Follower(
        prefix: current?.prefix ?? [], reduces: reduces, cap: cap, shape: current?.shape ?? [],
        store: store))
  }

  func ran(_ run: ScheduleRun, with decider: Follower) -> SearchStep {
    let picks = run.decisions.map(\.pick)

    let departures = store == nil ? run.jobDepartures : decider.departures
    runs += 1
    // Under the assumption, a schedule the sleep sets cut short or set apart for a later
    // round costs little, yet counts toward no limit: this bounds them.
    if store != nil, runs >= limit * 20 { return .finished(full) }
    if let divergence = decider.divergence {
      // It ran up to where it diverged only: nothing it did counts, and what it met is not
      // the search's to branch from past there.
      self.divergence = self.divergence ?? divergence
      diverged += 1
      return movingOn(after: run, asleep: decider.asleep)
    }
    // A schedule the sleep sets stopped only reorders one that ran; one they forced past the
    // cap is outside the space asked for.
    if !decider.isRedundant, departures <= cap ?? .max, !counted.contains(picks) {
      if run.failure != nil {
        guard countWaiting(before: picks) else { return .finished(full) }
        return .found(run, number: schedules + 1)
      }
      if departures > round {
        early[departures, default: []].insert(picks)
      } else {
        guard countWaiting(before: picks) else { return .finished(full) }
        counted.insert(picks)
        schedules += 1
        if schedules >= limit { return .finished(full) }
      }
    }
    let more = Self.oneDepartureMore(
      after: run, asleep: decider.asleep, awakeBase: store != nil)
    if !more.isEmpty {
      for start in more where startShapes[start] == nil {
        startShapes[start] = run.shape[..<start.count]
      }
      later[departures + 1, default: []].formUnion(more)
    }
    return movingOn(after: run, asleep: decider.asleep)
  }

  /// Sets up the round's next schedule after `run`, under the same first steps.
  private func movingOn(after run: ScheduleRun, asleep: [Set<Int>]) -> SearchStep {
    let start = current?.start ?? []
    current = Self.next(
      after: run, asleep: asleep, departures: round, from: start.count, awakeBase: store != nil
    ).map { (start, $0, run.shape[..<$0.count]) }
    return .searching
  }

  /// Ends the round under way: the report if the search is over, else `nil` with the next
  /// round's first steps in place.
  private func endRound() -> ExplorationReport? {
    guard countWaiting(before: nil) else { return full }
    bound = round
    // No order is left for a later round: the whole space has run.
    guard let next = Set(later.keys).union(early.keys).min() else {
      return ExplorationReport(
        strategy: strategy, schedules: schedules, isComplete: divergence == nil,
        boundLeftSchedulesOut: false, bound: round, failure: nil,
        nondeterminism: nondeterminism)
    }
    if next > cap ?? .max {
      return ExplorationReport(
        strategy: strategy, schedules: schedules, isComplete: divergence == nil,
        boundLeftSchedulesOut: true, bound: round, failure: nil,
        nondeterminism: nondeterminism)
    }
    round = next
    starts = (later.removeValue(forKey: next) ?? []).sorted { $0.lexicographicallyPrecedes($1) }
    nextStart = 0
    waiting =
      (early.removeValue(forKey: round) ?? []).sorted {
        $0.lexicographicallyPrecedes($1)
      }[...]
    return nil
  }

  /// Counts the forced schedules met before `picks` in this round's order (all of them for
  /// `nil`); `false` when the limit is reached.
  private func countWaiting(before picks: [Int]?) -> Bool {
    while let first = waiting.first, picks.map(first.lexicographicallyPrecedes) ?? true {
      waiting.removeFirst()
      guard counted.insert(first).inserted else { continue }
      schedules += 1
      if schedules >= limit { return false }
    }
    return true
  }

  /// The report of a search that reached its limit.
  private var full: ExplorationReport {
    ExplorationReport(
      strategy: strategy, schedules: schedules, isComplete: false,
      boundLeftSchedulesOut: true, bound: bound, failure: nil, nondeterminism: nondeterminism)
  }

  /// What the schedules that went another way than the runs they followed met, for the
  /// report: they count among no schedule, so the space is not covered.
  private var nondeterminism: String? {
    divergence.map {
      let schedules = diverged == 1 ? "1 schedule" : "\(diverged) schedules"
      return "\(schedules) could not be run as the search planned, and count among none: "
        + $0.description
    }
  }

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
    /// The decisions the run its prefix comes from met, up to the prefix's last.
    let shape: ArraySlice<ScheduleDivergence.Shape>
    private(set) var divergence: ScheduleDivergence?

    /// How many departures among ready jobs a schedule may take; `nil`: any number.
    let cap: Int?
    /// Departures among ready jobs taken so far: picks other than the oldest ready job, or,
    /// under the assumption, other than the first one awake.
    private(set) var departures = 0

    /// With the reduction that assumes no state is shared but what the scope sees: what each
    /// job and action the search ran did, and those asleep with what they did.
    private let store: JobRecordStore?
    private var sleepingJobs: [JobRecord] = []
    /// The decisions taken so far, hashed, and where the next job's record goes.
    private var path: UInt64 = 0
    private var recordAt: JobRecordStore.Place?

    init(
      prefix: [Int], reduces: Bool = true, cap: Int? = nil,
      shape: ArraySlice<ScheduleDivergence.Shape> = [], store: JobRecordStore? = nil
    ) {
      self.prefix = prefix
      self.reduces = reduces
      self.cap = cap
      self.shape = shape
      self.store = reduces ? store : nil
    }

    var recordsJobs: Bool { store != nil }

    mutating func mayTake(_ only: OptionFootprint) -> Bool {
      guard store != nil else { return true }
      // The only step left is asleep: whatever follows reorders a schedule already run.
      if sleep.contains(where: { $0.key == only.key })
        || sleepingJobs.contains(where: { $0.key == only.key })
      {
        isRedundant = true
        return false
      }
      return true
    }

    mutating func ran(_ record: JobRecord) {
      if let recordAt {
        store?.records[recordAt] = store?.records[recordAt] ?? record
        self.recordAt = nil
      }
      if record.footprint.runsCode {
        sleepingJobs.removeAll { !$0.commutes(with: record) }
      } else {
        // An answer or the clock: known by its footprint alone.
        sleepingJobs.removeAll { !$0.footprint.commutes(with: record.footprint) }
      }
      sleep.removeAll { !$0.commutes(with: record.footprint) }
    }

    mutating func decide(_ decision: Decision) -> Int? {
      let followed = decision.index < prefix.count ? prefix[decision.index] : nil
      if decision.index < shape.count {
        let found = ScheduleDivergence.Shape(kind: decision.kind, count: decision.count)
        guard shape[decision.index] == found else {
          divergence = ScheduleDivergence(
            decision: decision.index, expected: shape[decision.index], found: found,
            option: nil)
          return nil
        }
      }
      guard reduces else {
        asleep.append([])
        return taking(followed ?? 0, at: decision)
      }
      // Nothing asleep and the default taken: nothing to put to sleep either, so the options'
      // footprints, which most decisions of a schedule never need, are not worked out.
      if store == nil, sleep.isEmpty, (followed ?? 0) == 0 {
        asleep.append([])
        return taking(0, at: decision)
      }
      if let store { return decideRecording(decision, followed: followed, store: store) }
      let options = decision.options()
      // A sleep set holds a few options at most: a scan beats hashing them into a set.
      var here = Set<Int>()
      if !sleep.isEmpty {
        for index in options.indices where sleep.contains(where: { $0.key == options[index].key }) {
          here.insert(index)
        }
      }
      guard let pick = pick(at: decision, followed: followed, asleep: here) else { return nil }
      // The default is asleep, and any other job departs once more than the search allows:
      // whatever follows is outside the space asked for, so the schedule stops here.
      if followed == nil, pick != 0, decision.kind == .job, departures >= cap ?? .max {
        isRedundant = true
        return nil
      }
      let chosen = options[pick]
      sleep.removeAll { !$0.commutes(with: chosen) }
      for index in 0..<pick where !here.contains(index) && options[index].commutes(with: chosen) {
        sleep.append(options[index])
      }
      return taking(pick, at: decision)
    }

    /// `decide`, where what the options left for later did when they ran is known: a job
    /// sleeps while every job run since commutes with what it did (``JobRecord``), a choice
    /// while every step taken since commutes with it.
    private mutating func decideRecording(
      _ decision: Decision, followed: Int?, store: JobRecordStore
    ) -> Int? {
      let options = decision.options()
      var here = Set<Int>()
      for index in options.indices {
        let key = options[index].key
        if sleep.contains(where: { $0.key == key })
          || sleepingJobs.contains(where: { $0.key == key })
        {
          here.insert(index)
        }
      }
      guard let pick = pick(at: decision, followed: followed, asleep: here) else { return nil }
      // The first option awake is the default here: the ones before it lead only where
      // schedules already run led.
      if decision.kind == .job, pick != Self.base(here) { departures += 1 }
      // Each option left for later sleeps from here; what the chosen one does when it runs
      // wakes those it does not commute with (``ran(_:)``).
      for index in 0..<pick where !here.contains(index) {
        let option = options[index]
        if option.runsCode {
          // What it did when an earlier schedule took it here.
          if let record = store.records[.init(path: path, option: index)] {
            sleepingJobs.append(record)
          }
        } else {
          sleep.append(option)
        }
      }
      recordAt = options[pick].runsCode ? .init(path: path, option: pick) : nil
      path = JobRecordStore.extend(path, with: pick)
      return pick
    }

    /// Records the options asleep at `decision`, and returns the one its prefix names, or
    /// else the first awake; `nil`, having said why, when every option is asleep or the
    /// prefix names one that is not there.
    private mutating func pick(
      at decision: Decision, followed: Int?, asleep here: Set<Int>
    ) -> Int? {
      asleep.append(here)
      guard let pick = followed ?? (0..<decision.count).first(where: { !here.contains($0) })
      else {
        isRedundant = true
        return nil
      }
      guard pick < decision.count else {
        divergence = ScheduleDivergence(
          decision: decision.index, expected: nil,
          found: .init(kind: decision.kind, count: decision.count), option: pick)
        return nil
      }
      return pick
    }

    /// The first option not in `asleep`.
    static func base(_ asleep: Set<Int>) -> Int {
      var base = 0
      while asleep.contains(base) { base += 1 }
      return base
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
    after run: ScheduleRun, asleep: [Set<Int>], departures allowed: Int, from floor: Int,
    awakeBase: Bool = false
  ) -> [Int]? {
    let decisions = run.decisions
    // The default at each decision: the oldest ready job, or under the assumption the first
    // one awake.
    let base = { (index: Int) in
      awakeBase && index < asleep.count ? Follower.base(asleep[index]) : 0
    }
    // Job departures before each decision, to see what one more would cost.
    var before = [Int](repeating: 0, count: decisions.count)
    var used = 0
    for (index, taken) in decisions.enumerated() {
      before[index] = used
      if taken.kind == .job, taken.pick != base(index) { used += 1 }
    }
    for index in decisions.indices.reversed() where index >= floor {
      let taken = decisions[index]
      let sleeping = index < asleep.count ? asleep[index] : []
      guard
        let option = (taken.pick + 1..<taken.count).first(where: { !sleeping.contains($0) })
      else { continue }
      if taken.kind == .job, taken.pick == base(index), before[index] >= allowed { continue }
      return decisions[..<index].map(\.pick) + [option]
    }
    return nil
  }

  /// The first steps of `run`'s orders with one job departure more, placed after its last:
  /// at each later decision among ready jobs, each other awake option.
  static func oneDepartureMore(
    after run: ScheduleRun, asleep: [Set<Int>], awakeBase: Bool = false
  ) -> [[Int]] {
    let decisions = run.decisions
    let base = { (index: Int) in
      awakeBase && index < asleep.count ? Follower.base(asleep[index]) : 0
    }
    let last =
      decisions.indices.last { decisions[$0].kind == .job && decisions[$0].pick != base($0) }
      ?? -1
    var starts: [[Int]] = []
    for index in decisions.indices where index > last {
      let taken = decisions[index]
      guard taken.kind == .job, taken.pick == base(index) else { continue }
      let sleeping = index < asleep.count ? asleep[index] : []
      for option in taken.pick + 1..<taken.count where !sleeping.contains(option) {
        starts.append(decisions[..<index].map(\.pick) + [option])
      }
    }
    return starts
  }
}
