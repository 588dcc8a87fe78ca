/// Runs a scenario's schedules as a strategy says, and turns the first failure into a
/// report a person can act on: reduced, replayable and told step by step.
@MainActor
package struct Explorer {
  let strategy: ExplorationStrategy
  let runner: ScheduleRunner
  /// Whether the exhaustive search keeps sleep sets; off only to measure what they save.
  private let reduces: Bool
  /// Whether a failure's steps are told; a child that only looks for traps skips the cost.
  package var tells = true

  /// An explorer of the scenario `makeSetup` builds, once per schedule.
  package init(
    strategy: ExplorationStrategy, outsideWait: Duration?, jobBound: Duration? = nil,
    reduces: Bool = true, site: CallSite? = nil, progress: ExplorationProgress? = nil,
    makeSetup: @escaping @MainActor () -> ScheduleSetup
  ) {
    self.strategy = strategy
    self.reduces = reduces
    self.runner = ScheduleRunner(
      makeSetup: makeSetup, outsideWait: outsideWait,
      watchdog: JobWatchdog(
        bound: jobBound ?? FailureBoundScale.scaled(JobWatchdog.bound),
        scope: { "explore(\(strategy))" + (site.map { " at \($0.description)" } ?? "") },
        describe: ScheduleRunner.describe),
      strategy: strategy.description, progress: progress)
  }

  /// Explores, or runs only the schedule `replay` names.
  package func run(replay: String?) -> ExplorationReport {
    defer { runner.watchdog?.stop() }
    if let replay { return self.replay(replay) }
    switch strategy {
    case .exhaustive(let limit, let deviations):
      return exhaustive(limit: max(limit, 1), cap: deviations.map { max($0, 0) })
    case .random(let seed, let schedules):
      for number in 1...max(schedules, 1) {
        var decider = RandomDecider(seed: seed, schedule: number)
        let run = runner.run(&decider)
        if run.failure != nil { return found(run, number: number) }
      }
      return ExplorationReport(
        strategy: strategy, schedules: max(schedules, 1), isComplete: false, failure: nil)
    case .pct(let seed, let schedules, let depth):
      var longest = 8
      for number in 1...max(schedules, 1) {
        var decider = PCTDecider(seed: seed, schedule: number, depth: depth, decisions: longest)
        let run = runner.run(&decider)
        longest = max(longest, run.decisions.count)
        if run.failure != nil { return found(run, number: number) }
      }
      return ExplorationReport(
        strategy: strategy, schedules: max(schedules, 1), isComplete: false, failure: nil)
    }
  }

  /// Rounds of growing bound on departures (0, 1, 2, …) until no order is left for the next
  /// round, `cap` is reached or `limit` schedules have run.
  ///
  /// Each schedule runs once. Round 0 runs every order of the scenario's choices with no
  /// departure; each schedule a round runs yields the first steps of its orders with one
  /// departure more (``ExhaustiveSearch/oneDepartureMore(after:asleep:)``), which the next
  /// round runs, choices and all, in the order of their picks, so that schedules are numbered
  /// as a depth-first search of each round would number them. Running a round afresh from the
  /// empty prefix would run every schedule of the rounds before it again.
  private func exhaustive(limit: Int, cap: Int?) -> ExplorationReport {
    var schedules = 0
    var bound: Int?
    var round = 0
    var starts: Set<[Int]> = [[]]
    // First steps of later rounds, by round.
    var later: [Int: Set<[Int]>] = [:]
    // Schedules the sleep sets forced to depart more often than their round: each counts in
    // the round of its departures, where a depth-first search of that round would meet it.
    var early: [Int: Set<[Int]>] = [:]
    var counted = Set<[Int]>()
    let full = { (schedules: Int) in
      ExplorationReport(
        strategy: strategy, schedules: schedules, isComplete: false,
        boundLeftSchedulesOut: true, bound: bound, failure: nil)
    }
    while true {
      var waiting = (early.removeValue(forKey: round) ?? []).sorted {
        $0.lexicographicallyPrecedes($1)
      }[...]
      // Counts the forced schedules met before `picks` in this round's order; `false` when
      // the limit is reached.
      func countWaiting(before picks: [Int]?) -> Bool {
        while let first = waiting.first, picks.map(first.lexicographicallyPrecedes) ?? true {
          waiting.removeFirst()
          guard counted.insert(first).inserted else { continue }
          schedules += 1
          if schedules >= limit { return false }
        }
        return true
      }
      for start in starts.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        var prefix = start
        while true {
          var decider = ExhaustiveSearch.Follower(prefix: prefix, reduces: reduces, cap: cap)
          let run = runner.run(&decider)
          let picks = run.decisions.map(\.pick)
          let departures = run.jobDeviations
          // A schedule the sleep sets stopped only reorders one that ran; one they forced
          // past the cap is outside the space asked for.
          if !decider.isRedundant, departures <= cap ?? .max, !counted.contains(picks) {
            if run.failure != nil {
              guard countWaiting(before: picks) else { return full(schedules) }
              return found(run, number: schedules + 1)
            }
            if departures > round {
              early[departures, default: []].insert(picks)
            } else {
              guard countWaiting(before: picks) else { return full(schedules) }
              counted.insert(picks)
              schedules += 1
              if schedules >= limit { return full(schedules) }
            }
          }
          let more = ExhaustiveSearch.oneDepartureMore(after: run, asleep: decider.asleep)
          if !more.isEmpty { later[departures + 1, default: []].formUnion(more) }
          guard
            let next = ExhaustiveSearch.next(
              after: run, asleep: decider.asleep, departures: round, from: start.count)
          else { break }
          prefix = next
        }
      }
      guard countWaiting(before: nil) else { return full(schedules) }
      bound = round
      // No order is left for a later round: the whole space has run.
      guard let next = Set(later.keys).union(early.keys).min() else {
        return ExplorationReport(
          strategy: strategy, schedules: schedules, isComplete: true,
          boundLeftSchedulesOut: false, bound: round, failure: nil)
      }
      if next > cap ?? .max {
        return ExplorationReport(
          strategy: strategy, schedules: schedules, isComplete: true,
          boundLeftSchedulesOut: true, bound: round, failure: nil)
      }
      round = next
      starts = later.removeValue(forKey: next) ?? []
    }
  }

  /// Runs the schedule `departures` names, an option no longer there taken as the default, as
  /// a reduction tries a candidate.
  package func runLeniently(_ departures: [ReplayString.Departure]) {
    var decider = ReplayDecider(departures, lenient: true)
    _ = runner.run(&decider)
  }

  private func replay(_ text: String) -> ExplorationReport {
    let departures: [ReplayString.Departure]
    switch ReplayString.decode(text) {
    case .success(let decoded):
      departures = decoded
    case .failure(let error):
      let reason =
        switch error {
        case .notAReplayString: "\"\(text)\" is not a replay string (it reads like \"x2:3.1,9.2\")."
        case .earlierVersion:
          "\"\(text)\" comes from an earlier version, which made no choice among jobs; run the exploration again for an x2: string."
        }
      return ExplorationReport(
        strategy: strategy, schedules: 0, isComplete: false,
        failure: ExplorationFailure(
          strategy: strategy, scheduleNumber: 0, replay: text, steps: [], reason: reason,
          deviations: 0))
    }
    var decider = ReplayDecider(departures)
    let run = runner.run(&decider, narrate: true)
    guard let failure = run.failure else {
      return ExplorationReport(strategy: strategy, schedules: 1, isComplete: false, failure: nil)
    }
    return ExplorationReport(
      strategy: strategy, schedules: 1, isComplete: false,
      failure: ExplorationFailure(
        strategy: strategy, scheduleNumber: 1, replay: ReplayString.encode(run.departures),
        steps: run.steps, reason: failure.reason, deviations: run.deviations))
  }

  /// The report of a failure found on schedule `number`: reduced, then told.
  private func found(_ failing: ScheduleRun, number: Int) -> ExplorationReport {
    var shrinker = FailureShrinker(runner: runner)
    let reduced = shrinker.reduce(failing)
    var decider = ReplayDecider(reduced.departures)
    let told = runner.run(&decider, narrate: tells)
    let reason = (told.failure ?? reduced.failure)?.reason ?? "the schedule failed"
    return ExplorationReport(
      strategy: strategy, schedules: number, isComplete: false,
      failure: ExplorationFailure(
        strategy: strategy, scheduleNumber: number,
        replay: ReplayString.encode(reduced.departures), steps: told.steps, reason: reason,
        deviations: reduced.deviations))
  }
}
