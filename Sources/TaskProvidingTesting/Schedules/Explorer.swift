/// Runs a scenario's schedules as a strategy says, and turns the first failure into a
/// report a person can act on: shrunk, replayable and narrated step by step.
@MainActor
struct Explorer {
  let strategy: ExplorationStrategy
  let context: ExplorationContext
  /// Whether the exhaustive search keeps sleep sets; off only to measure what they save.
  private let reduces: Bool
  /// Whether a failure's steps are narrated; a child that only looks for traps skips the cost.
  var narrates = true

  /// An explorer of the scenario `makeSetup` builds, once per schedule.
  init(
    strategy: ExplorationStrategy, outsideWait: Duration?, jobTimeout: Duration? = nil,
    reduces: Bool = true, site: CallSite? = nil, progress: ExplorationProgress? = nil,
    makeSetup: @escaping @MainActor () -> ScheduleSetup
  ) {
    self.strategy = strategy
    self.reduces = reduces
    self.context = ExplorationContext(
      makeSetup: makeSetup, outsideWait: outsideWait,
      watchdog: JobWatchdog(
        timeout: jobTimeout ?? TimeoutScale.scaled(JobWatchdog.timeout),
        scope: { "explore(\(strategy))" + (site.map { " at \($0.description)" } ?? "") },
        describe: ExplorationContext.describe),
      strategy: strategy.description, progress: progress)
  }

  /// An exploration under way, one schedule a step: its strategy's search, then the
  /// shrinking of the failure it found, then the narration of its steps.
  struct Course {
    fileprivate enum Phase {
      case replaying(ScheduleUnderWay<ReplayDecider>)
      case searching(any ScheduleStrategy)
      case shrinking(FailureShrinker, number: Int)
      case narrating(ScheduleUnderWay<ReplayDecider>, shrunk: ScheduleRun, number: Int)
      case over(ExplorationReport)
    }

    fileprivate var phase: Phase
    /// Whether a failure's steps are left for ``Explorer/run(replay:)-async`` to narrate off the
    /// main actor, rather than narrated while the schedule that saw them holds it.
    fileprivate let narratesLater: Bool
    /// A failure's steps, seen and not yet narrated.
    fileprivate var narration: ScheduleNarrator.Narration?
  }

  /// What a step of a course did.
  enum Advance {
    /// It ran a schedule, or part of one, and there is more to run.
    case ongoing
    /// Its schedule waits for a job from outside its scope.
    case waiting(OutsideWork)
    /// The exploration is over.
    case over(ExplorationReport)
  }

  /// The exploration's course, or the run of only the schedule `replay` names.
  /// `narratingLater`: a failure's steps are kept in the course's narration, to be narrated off the
  /// main actor.
  func begin(replay: String?, narratingLater: Bool = false) -> Course {
    if let replay {
      switch ReplayString.decode(replay) {
      case .success(let departures):
        return Course(
          phase: .replaying(
            ScheduleUnderWay(
              of: context, decider: ReplayDecider(departures), narrate: true,
              narratingLater: narratingLater)),
          narratesLater: narratingLater)
      case .failure(let error):
        return Course(phase: .over(unreadable(replay, error)), narratesLater: narratingLater)
      }
    }
    let search: any ScheduleStrategy =
      switch strategy {
      case .exhaustive(let limit, let departures, let reduction):
        ExhaustiveStrategy(
          strategy, limit: limit, cap: departures, reduces: reduces, reduction: reduction)
      case .random(let seed, let schedules):
        SampledStrategy(strategy, schedules: schedules, sampler: RandomSampler(seed: seed))
      case .pct(let seed, let schedules, let depth):
        SampledStrategy(
          strategy, schedules: schedules, sampler: PCTSampler(seed: seed, depth: depth))
      case .pos(let seed, let schedules):
        SampledStrategy(strategy, schedules: schedules, sampler: POSSampler(seed: seed))
      case .uniformWalk(let seed, let schedules):
        SampledStrategy(strategy, schedules: schedules, sampler: UniformWalkSampler(seed: seed))
      }
    return Course(phase: .searching(search), narratesLater: narratingLater)
  }

  /// Runs the course's next schedule, or the one under way, to its end; where it must wait
  /// for outside work, waits if `blocks`, else returns ``Advance/waiting(_:)``.
  func step(_ course: inout Course, waiting blocks: Bool) -> Advance {
    switch course.phase {
    case .over(let report):
      return .over(report)
    case .replaying(let schedule):
      guard let run = schedule.advance(waiting: blocks) else { return waiting(on: schedule) }
      course.narration = run.narration
      return .over(replayed(run))
    case .searching(let search):
      switch search.step(context, waiting: blocks) {
      case .searching: return .ongoing
      case .waiting(let work): return .waiting(work)
      case .finished(let report): return .over(saidOfOutsideWork(report))
      case .found(let run, let number):
        course.phase = .shrinking(
          FailureShrinker(context: context, failing: run, strategy: strategy), number: number)
        return .ongoing
      }
    case .shrinking(var shrinker, let number):
      let step = shrinker.step(waiting: blocks)
      course.phase = .shrinking(shrinker, number: number)
      switch step {
      case .trying: return .ongoing
      case .waiting(let work): return .waiting(work)
      case .done:
        // The narration is the determinism check: the failure, run once more, must meet the
        // decisions it met and fail the same way.
        let schedule = ScheduleUnderWay(
          of: context,
          decider: ReplayDecider(shrinker.best.departures, shape: shrinker.best.shape),
          narrate: narrates, narratingLater: course.narratesLater)
        course.phase = .narrating(schedule, shrunk: shrinker.best, number: number)
        return .ongoing
      }
    case .narrating(let schedule, let shrunk, let number):
      guard let narrated = schedule.advance(waiting: blocks) else { return waiting(on: schedule) }
      course.narration = narrated.narration
      return .over(saidOfOutsideWork(report(shrunk, narrated: narrated, number: number)))
    }
  }

  /// `report`, saying so if any schedule heard from work outside the explorer's view: the
  /// order of that work against the scope's jobs was the machine's, not a choice, so the
  /// space is not complete.
  private func saidOfOutsideWork(_ report: ExplorationReport) -> ExplorationReport {
    var said: [String] = []
    if context.outside.heard {
      said.append(
        "jobs of the scenario's tasks came from a thread outside the explorer's view (a"
          + " dispatch queue, a custom executor such as a database's, a thread of its own): the"
          + " explorer chose among the jobs in its scope and when a schedule takes its steps,"
          + " but not when that work runs or how it orders against them, so the schedules it"
          + " ran do not cover every order")
    }
    if context.outside.unpreferredCount > 0 { said.append(unpreferredTasksSaid) }
    if context.outside.ranUnwatchedActorTurn { said.append(unwatchedActorsSaid) }
    guard !said.isEmpty else { return report }
    return report.withOutsideWork(said.joined(separator: "; and "))
  }

  /// What a report says where code ran on actors and task creation cannot be watched.
  private var unwatchedActorsSaid: String {
    let names = context.outside.unwatchedActors
    let actors = names.isEmpty ? "actors" : "actors (" + names.joined(separator: ", ") + ")"
    return "code of the scenario ran on " + actors + " where this platform does not let the"
      + " explorer see tasks being created: a `Task { }` created there starts in the actor's"
      + " queue and may go from actor to actor, or to the pool, with no job the explorer sees, so"
      + " it cannot tell that every hop was a choice. Tasks spawned through a provider are seen"
  }

  /// What a report says of the scenario's tasks that ran without the explorer's executor.
  private var unpreferredTasksSaid: String {
    let outside = context.outside
    let count = outside.unpreferredCount
    let named = outside.unpreferred.map { "'\($0)'" }.joined(separator: ", ")
    let which =
      count == 1
      ? "a task" + (named.isEmpty ? "" : " (\(named))")
      : "\(count) tasks" + (named.isEmpty ? "" : " (among them \(named))")
    return which + " of the scenario ran without the explorer's executor, so a hop of "
      + (count == 1 ? "its" : "theirs")
      + " from an actor to an idle actor or to the pool may have run at once, with no choice: "
      + (count == 1 ? "it was" : "they were")
      + " started with `Task { }` where this platform does not let the explorer see tasks being"
      + " created (Apple's platforms), with `Task.immediate`, or before the exploration."
      + " Spawn such tasks through `exploration.provider` (or the provider the code under test"
      + " takes) to have every hop explored"
  }

  private func waiting(on schedule: ScheduleUnderWay<ReplayDecider>) -> Advance {
    schedule.outsideWork.map(Advance.waiting) ?? .ongoing
  }

  /// Explores, or runs only the schedule `replay` names, holding the main actor throughout.
  func run(replay: String?) -> ExplorationReport {
    defer { context.watchdog?.stop() }
    var course = begin(replay: replay)
    while true {
      if case .over(let report) = step(&course, waiting: true) { return report }
    }
  }

  /// Explores, or runs only the schedule `replay` names, giving the main actor back to other
  /// work between schedules once it has held it for a turn (``MainActorTurn``), and while a
  /// schedule waits for work outside its scope.
  func run(replay: String?) async -> ExplorationReport {
    defer { context.watchdog?.stop() }
    var course = begin(replay: replay, narratingLater: true)
    while true {
      switch step(&course, waiting: false) {
      case .over(let report):
        guard let narration = course.narration, let failure = report.failure else { return report }
        let (steps, everyStep) = await ThreadOfItsOwn.run {
          (narration.narrated(), narration.narrated(folded: false))
        }
        return report.withSteps(steps, everyStep: everyStep, of: failure)
      case .waiting(let work): await work.wait()
      case .ongoing:
        if Task.isCancelled, let report = stoppedOnCancellation(course) { return report }
        await MainActorTurn.giveBackIfDue()
      }
    }
  }

  /// Where the task exploring was cancelled (a test's time limit passed) while searching,
  /// between two schedules: the search so far, which covers nothing; `nil` elsewhere. A
  /// failure already found is still shrunk and narrated.
  private func stoppedOnCancellation(_ course: Course) -> ExplorationReport? {
    guard case .searching(let search) = course.phase, search.isBetweenSchedules else { return nil }
    return ExplorationReport(
      strategy: strategy, schedules: context.begun.count, isComplete: false, failure: nil)
  }

  /// Runs the schedule `departures` names, an option no longer there taken as the default, as
  /// shrinking tries a candidate.
  func runLeniently(_ departures: [ReplayString.Departure]) {
    let schedule = ScheduleUnderWay(
      of: context, decider: ReplayDecider(departures, lenient: true), narrate: false)
    while schedule.advance(waiting: true) == nil {}
  }

  /// The report of a replay string that cannot be read.
  private func unreadable(
    _ text: String, _ error: ReplayString.DecodingError
  ) -> ExplorationReport {
    let reason =
      switch error {
      case .notAReplayString: "\"\(text)\" is not a replay string (it reads like \"x2:3.1,9.2\")."
      case .earlierVersion:
        "\"\(text)\" comes from an earlier version, which made no choice among jobs; run the exploration again for an x2: string."
      }
    return .failed(
      strategy: strategy, schedules: 0, scheduleNumber: 0, replay: text, steps: [],
      reason: reason, departures: 0)
  }

  /// The report of the one schedule a replay string named, which ran as `run`.
  private func replayed(_ run: ScheduleRun) -> ExplorationReport {
    if let divergence = run.divergence {
      return .failed(
        strategy: strategy, schedules: 1, scheduleNumber: 1,
        replay: ReplayString.encode(run.departures), steps: run.steps, everyStep: run.everyStep,
        reason: "the replay string does not fit this scenario: " + divergence.description
          + " Or the scenario changed since the string was made.",
        departures: run.departureCount)
    }
    guard let failure = run.failure else {
      return ExplorationReport(strategy: strategy, schedules: 1, isComplete: false, failure: nil)
    }
    return .failed(
      strategy: strategy, schedules: 1, scheduleNumber: 1,
      replay: ReplayString.encode(run.departures), steps: run.steps, everyStep: run.everyStep,
      reason: failure.reason, departures: run.departureCount, scenarioThrew: failure.threw)
  }

  /// The report of a failure found on schedule `number`, shrunk to `shrunk` and narrated as
  /// `narrated`.
  private func report(_ shrunk: ScheduleRun, narrated: ScheduleRun, number: Int)
    -> ExplorationReport
  {
    let failure = narrated.failure ?? shrunk.failure
    return .failed(
      strategy: strategy, schedules: number, scheduleNumber: number,
      replay: ReplayString.encode(shrunk.departures), steps: narrated.steps,
      everyStep: narrated.everyStep, reason: failure?.reason ?? "the schedule failed",
      departures: shrunk.departureCount,
      nondeterminism: Self.divergence(of: narrated, from: shrunk),
      scenarioThrew: failure?.threw ?? false)
  }

  /// What went another way when the failure `shrunk` was run once more as `narrated`, or `nil`
  /// if it met the same decisions and failed the same way.
  static func divergence(of narrated: ScheduleRun, from shrunk: ScheduleRun) -> String? {
    if let divergence = narrated.divergence { return divergence.description }
    guard narrated.failure?.kind != shrunk.failure?.kind else { return nil }
    let ended =
      narrated.failure.map { "it failed otherwise (\($0.reason))" } ?? "it did not fail"
    let met =
      narrated.decisions.count == shrunk.decisions.count
      ? "it met the same \(narrated.decisions.count) decisions"
      : "it met \(narrated.decisions.count) decisions where it had met \(shrunk.decisions.count)"
    return "\(met), but \(ended). " + ScheduleDivergence.causes
  }
}
