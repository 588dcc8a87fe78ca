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

  /// An exploration under way, one schedule a step: its strategy's search, then the
  /// reduction of the failure it found.
  package struct Course {
    fileprivate enum Phase {
      case replaying(String)
      case searching(any ScheduleSearch)
      case reducing(FailureShrinker, number: Int)
    }

    fileprivate var phase: Phase
    /// Whether a failure's steps are left for ``Explorer/run(replay:)-async`` to tell off the
    /// main actor, rather than told while the schedule that saw them holds it.
    fileprivate var tellsLater = false
    /// A failure's steps, seen and not yet told.
    fileprivate var story: ScheduleNarrator.Story?
  }

  /// The exploration's course, or the run of only the schedule `replay` names.
  package func begin(replay: String?) -> Course {
    if let replay { return Course(phase: .replaying(replay)) }
    let search: any ScheduleSearch =
      switch strategy {
      case .exhaustive(let limit, let deviations):
        ExhaustiveSearch(strategy, limit: limit, cap: deviations, reduces: reduces)
      case .random(let seed, let schedules):
        RandomSearch(strategy, seed: seed, schedules: schedules)
      case .pct(let seed, let schedules, let depth):
        PCTSearch(strategy, seed: seed, schedules: schedules, depth: depth)
      }
    return Course(phase: .searching(search))
  }

  /// Runs the course's next schedule; its report once the exploration is over.
  package func step(_ course: inout Course) -> ExplorationReport? {
    switch course.phase {
    case .replaying(let text):
      return replay(text, &course)
    case .searching(var search):
      switch search.step(runner) {
      case .searching:
        course.phase = .searching(search)
        return nil
      case .finished(let report):
        return report
      case .found(let run, let number):
        course.phase = .reducing(FailureShrinker(runner: runner, failing: run), number: number)
        return nil
      }
    case .reducing(var shrinker, let number):
      guard shrinker.step() else {
        course.phase = .reducing(shrinker, number: number)
        return nil
      }
      return told(shrinker.best, number: number, &course)
    }
  }

  /// Explores, or runs only the schedule `replay` names, holding the main actor throughout.
  package func run(replay: String?) -> ExplorationReport {
    defer { runner.watchdog?.stop() }
    var course = begin(replay: replay)
    while true {
      if let report = step(&course) { return report }
    }
  }

  /// Explores, or runs only the schedule `replay` names, giving the main actor back to other
  /// work between schedules once it has held it for a turn (``MainActorTurn``).
  package func run(replay: String?) async -> ExplorationReport {
    defer { runner.watchdog?.stop() }
    var course = begin(replay: replay)
    course.tellsLater = true
    while true {
      if let report = step(&course) {
        guard let story = course.story, let failure = report.failure else { return report }
        let steps = await Task.detached { story.told() }.value
        return report.withSteps(steps, of: failure)
      }
      await MainActorTurn.giveBackIfDue()
    }
  }

  /// Runs the schedule `departures` names, an option no longer there taken as the default, as
  /// a reduction tries a candidate.
  package func runLeniently(_ departures: [ReplayString.Departure]) {
    var decider = ReplayDecider(departures, lenient: true)
    _ = runner.run(&decider)
  }

  private func replay(_ text: String, _ course: inout Course) -> ExplorationReport {
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
    let run = runner.run(&decider, narrate: true, tellingLater: course.tellsLater)
    course.story = run.story
    guard let failure = run.failure else {
      return ExplorationReport(strategy: strategy, schedules: 1, isComplete: false, failure: nil)
    }
    return ExplorationReport(
      strategy: strategy, schedules: 1, isComplete: false,
      failure: ExplorationFailure(
        strategy: strategy, scheduleNumber: 1, replay: ReplayString.encode(run.departures),
        steps: run.steps, reason: failure.reason, deviations: run.deviations))
  }

  /// The report of a failure found on schedule `number` and reduced to `reduced`: told.
  private func told(
    _ reduced: ScheduleRun, number: Int, _ course: inout Course
  ) -> ExplorationReport {
    var decider = ReplayDecider(reduced.departures)
    let told = runner.run(&decider, narrate: tells, tellingLater: course.tellsLater)
    course.story = told.story
    let reason = (told.failure ?? reduced.failure)?.reason ?? "the schedule failed"
    return ExplorationReport(
      strategy: strategy, schedules: number, isComplete: false,
      failure: ExplorationFailure(
        strategy: strategy, scheduleNumber: number,
        replay: ReplayString.encode(reduced.departures), steps: told.steps, reason: reason,
        deviations: reduced.deviations))
  }
}
