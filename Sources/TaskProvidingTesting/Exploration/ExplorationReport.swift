/// What an exploration found.
public struct ExplorationReport: Sendable, CustomStringConvertible {
  /// The strategy that chose.
  public let strategy: ExplorationStrategy
  /// How many distinct schedules ran.
  public let schedules: Int
  /// For an exhaustive exploration: whether it ran to the end of the rounds it was allowed,
  /// rather than stopping at its limit.
  public let isComplete: Bool
  /// For an exhaustive exploration: whether some schedule was left out only because it
  /// departs from the default order more often than the bound reached. `false` with
  /// ``isComplete`` means every schedule there is was run (``coversEverySchedule``).
  /// Secondary to ``isComplete`` and ``coversEverySchedule``, as ``bound`` is.
  public let boundLeftSchedulesOut: Bool
  /// For an exhaustive exploration: the bound on departures from the default order whose
  /// schedules were all run; `nil` when not even the schedule with none was.
  public let bound: Int?
  /// The first schedule that failed, if one did, shrunk to the fewest departures from the
  /// default order that still fail.
  public let failure: ExplorationFailure?
  /// Uncontrolled nondeterminism the exploration met, if it met any: a schedule that went
  /// another way than an earlier run with the same choices, because something the explorer
  /// does not control (a thread of its own, a dispatch queue, a clock, random numbers, the
  /// order of a `Dictionary` or `Set`) changed the order of the scenario's jobs. It says
  /// what diverged. The search then counts the space as not covered (``isComplete`` is
  /// `false`); the schedules that did run were real runs of the scenario.
  public let nondeterminism: String?
  /// Set when work outside the explorer's choices may have taken part, saying what and what
  /// to do; ``isComplete`` is then `false`:
  /// - a job of one of the scenario's tasks came from a thread the explorer does not drive (a
  ///   dispatch queue, a custom executor, a thread of its own);
  /// - a task ran without the explorer's executor (a `Task { }` where the platform does not
  ///   let the explorer see tasks being created, a `Task.immediate`), so a hop of its from an
  ///   actor may have run at once, with no choice;
  /// - where tasks cannot be seen being created, code ran on an actor, where a `Task { }` may
  ///   have started unseen.
  ///
  /// Work that resumes a task before the task has suspended brings no job, and is not seen.
  public let outsideWork: String?

  /// For an exhaustive exploration: whether every schedule of the scenario ran, with no bound
  /// and no limit leaving any out.
  public var coversEverySchedule: Bool { isComplete && !boundLeftSchedulesOut }

  /// What the coverage rests on beyond the explorer's own knowledge, if anything: set for
  /// an exhaustive exploration that reduced ``ExplorationReduction/assumingNoHiddenSharing``,
  /// whose ``isComplete`` and ``coversEverySchedule`` hold only if the scenario's tasks share
  /// no state but through what the explorer's scope sees.
  public var assumption: String? {
    guard case .exhaustive(_, _, .assumingNoHiddenSharing) = strategy else { return nil }
    return "it assumed the scenario's tasks share no state but through what the explorer sees"
      + " (actors, the main actor, tasks started or woken, sleeps): two jobs whose effects"
      + " did not meet were run in one order only, so an order that matters only through a"
      + " Mutex, an atomic, a lock, a task's cancellation or unsafe memory may be left out"
  }

  /// A report, as the explorer makes one.
  init(
    strategy: ExplorationStrategy, schedules: Int, isComplete: Bool,
    boundLeftSchedulesOut: Bool = false, bound: Int? = nil, failure: ExplorationFailure?,
    nondeterminism: String? = nil, outsideWork: String? = nil
  ) {
    self.strategy = strategy
    self.schedules = schedules
    self.isComplete = isComplete
    self.boundLeftSchedulesOut = boundLeftSchedulesOut
    self.bound = bound
    self.failure = failure
    self.nondeterminism = nondeterminism
    self.outsideWork = outsideWork
  }

  /// The report of an exploration that stopped at a failure, after `schedules` schedules: it
  /// covers nothing.
  static func failed(
    strategy: ExplorationStrategy, schedules: Int, scheduleNumber: Int, replay: String,
    steps: [String], everyStep: [String]? = nil, reason: String, departures: Int,
    nondeterminism: String? = nil, scenarioThrew: Bool = false
  ) -> ExplorationReport {
    ExplorationReport(
      strategy: strategy, schedules: schedules, isComplete: false,
      failure: ExplorationFailure(
        strategy: strategy, scheduleNumber: scheduleNumber, replay: replay, steps: steps,
        everyStep: everyStep, reason: reason, departures: departures,
        nondeterminism: nondeterminism, scenarioThrew: scenarioThrew))
  }

  /// This report, with the work outside the explorer's view it met.
  func withOutsideWork(_ text: String) -> ExplorationReport {
    ExplorationReport(
      strategy: strategy, schedules: schedules, isComplete: false,
      boundLeftSchedulesOut: boundLeftSchedulesOut, bound: bound, failure: failure,
      nondeterminism: nondeterminism, outsideWork: text)
  }

  /// This report, its failure narrated in `steps`.
  func withSteps(
    _ steps: [String], everyStep: [String], of failure: ExplorationFailure
  ) -> ExplorationReport {
    ExplorationReport(
      strategy: strategy, schedules: schedules, isComplete: isComplete,
      boundLeftSchedulesOut: boundLeftSchedulesOut, bound: bound,
      failure: ExplorationFailure(
        strategy: failure.strategy, scheduleNumber: failure.scheduleNumber,
        replay: failure.replay, steps: steps, everyStep: everyStep, reason: failure.reason,
        departures: failure.departures, nondeterminism: failure.nondeterminism,
        scenarioThrew: failure.scenarioThrew),
      nondeterminism: nondeterminism, outsideWork: outsideWork)
  }

  /// The report as a person reads it: the failure, or how much was covered.
  public var description: String {
    if let failure { return failure.description }
    var coverage = ""
    if case .exhaustive = strategy {
      let within =
        bound.map { "\($0) \($0 == 1 ? "departure" : "departures") from the default order" }
      switch (isComplete, boundLeftSchedulesOut, within) {
      case (true, false, _): coverage = " (all of them)"
      case (true, true, let within?):
        coverage = " (all of them within \(within); more departures would give more)"
      case (false, _, let within?) where outsideWork != nil:
        coverage = " (within \(within), as far as the explorer's choices go)"
      case (false, _, let within?) where nondeterminism != nil:
        coverage = " (within \(within), but not all of them: some went another way)"
      case (false, _, let within?):
        coverage = " (all of them within \(within); the limit stopped the next round)"
      default: coverage = " (the limit stopped it before the first round ended)"
      }
    }
    var passed = "\(strategy): \(schedules) schedules passed\(coverage)."
    if let assumption {
      passed += " " + assumption.prefix(1).uppercased() + assumption.dropFirst() + "."
    }
    if let outsideWork {
      passed += " " + outsideWork.prefix(1).uppercased() + outsideWork.dropFirst() + "."
    }
    guard let nondeterminism else { return passed }
    return passed + " Uncontrolled nondeterminism: " + nondeterminism
  }
}
