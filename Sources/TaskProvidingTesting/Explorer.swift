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
        scope: "explore(\(strategy))" + (site.map { " at \($0.description)" } ?? "")),
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

  /// Rounds of growing bound on departures (0, 1, 2, …) until a round's bound left nothing
  /// out, `cap` is reached or `limit` schedules have run.
  private func exhaustive(limit: Int, cap: Int?) -> ExplorationReport {
    var schedules = 0
    var bound: Int?
    var round = 0
    while true {
      var prefix: [Int] = []
      var cutThisRound = false
      while true {
        var decider = ExhaustiveSearch.Follower(prefix: prefix, reduces: reduces)
        let run = runner.run(&decider)
        // Schedules with fewer departures ran in an earlier round; a failure among them
        // would have ended it, unless the scenario does not run the same way twice. A
        // schedule the sleep sets stopped only reorders one that ran.
        if !decider.isRedundant, run.jobDeviations == round || run.failure != nil {
          schedules += 1
          if run.failure != nil { return found(run, number: schedules) }
          if schedules >= limit {
            return ExplorationReport(
              strategy: strategy, schedules: schedules, isComplete: false,
              boundLeftSchedulesOut: true, bound: bound, failure: nil)
          }
        }
        guard
          let next = ExhaustiveSearch.next(
            after: run, asleep: decider.asleep, departures: round, leftOut: &cutThisRound)
        else { break }
        prefix = next
      }
      bound = round
      // No order was held back by this round's bound: later rounds have nothing new.
      if !cutThisRound || round >= cap ?? .max {
        return ExplorationReport(
          strategy: strategy, schedules: schedules, isComplete: true,
          boundLeftSchedulesOut: cutThisRound, bound: round, failure: nil)
      }
      round += 1
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
