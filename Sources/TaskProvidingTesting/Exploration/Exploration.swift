import TaskProviding

// Repeated on purpose (docs/architecture.md): the synchronous and the `async` form each take the
// same parameters and forward them to one package function.

/// What a scenario can say to its exploration: the person's actions, and the properties that
/// must hold.
@MainActor
public final class Exploration {
  /// The provider every spawn of the scenario goes through: it records each task and holds
  /// none. A task's start is a job of the schedule, which the explorer orders as the
  /// runtime could: two tasks spawned on the main actor start in the order they were
  /// spawned, in turn with the main actor's other jobs; two spawned on the pool
  /// (`detachedTask`, or from `nonisolated` code) start in either order. Also installed as
  /// `@Dependency(\.taskProvider)`. Use it wherever an `any TaskProvider` is wanted.
  public let provider: ExplorationTaskProvider
  /// The clock of this schedule: time moves only when the explorer chooses to move it, once
  /// no job can run. Also installed as `@Dependency(\.continuousClock)` and
  /// `@Dependency(\.suspendingClock)`.
  public let clock = ExplorationClock()

  var invariants: [(name: String, holds: @MainActor () -> Bool)] = []
  var finalChecks: [(name: String, holds: @MainActor () -> Bool)] = []
  var awaitedInvariants: [AwaitedCheck] = []
  var awaitedFinalChecks: [AwaitedCheck] = []
  var actions: [(name: String, perform: @MainActor () -> Void)] = []
  var nextAction = 0

  init(provider: ExplorationTaskProvider) {
    self.provider = provider
  }

  /// A person's action, taken in the order the scenario lists them, at whatever point of the
  /// schedule the strategy chooses: before, between or after the jobs, tasks and calls of
  /// the actions before it, including while their tasks are between two `await`s.
  ///
  /// - Parameters:
  ///   - name: How a schedule's steps name it ("tap get-fact").
  ///   - perform: The action: call the model, spawn a tap through the provider.
  public func action(_ name: String, _ perform: @escaping @MainActor () -> Void) {
    actions.append((name, perform))
  }

  /// A property that must hold whenever no job is ready, after every step of every
  /// schedule, and at the end.
  ///
  /// - Parameters:
  ///   - name: How a failure names it ("isLoading is true iff a request is in flight").
  ///   - holds: Reads the model; `false` fails the schedule.
  public func invariant(_ name: String, _ holds: @escaping @MainActor () -> Bool) {
    invariants.append((name, holds))
  }

  /// A property that must hold once the schedule has run to its end: nothing is held,
  /// nothing is open and the scenario has returned.
  ///
  /// - Parameters:
  ///   - name: How a failure names it ("the fact shown is about the current count").
  ///   - holds: Reads the model; `false` fails the schedule.
  public func atEnd(_ name: String, _ holds: @escaping @MainActor () -> Bool) {
    finalChecks.append((name, holds))
  }

  /// A property that must hold whenever no job is ready, read with `await`: state kept in an
  /// actor, read where it lives.
  ///
  /// It is checked at the same points as a synchronous invariant, after those. Its own jobs
  /// (a hop onto the actor and back) run then, in order, with no other job ready, and are
  /// neither choices nor steps of the schedule.
  ///
  /// - Parameters:
  ///   - name: How a failure names it ("the ledger's balance is never negative").
  ///   - holds: Reads the state; `false` fails the schedule. A check that never returns
  ///     fails it too.
  public func invariant(_ name: String, _ holds: @escaping @MainActor () async -> Bool) {
    awaitedInvariants.append(AwaitedCheck(name: name, holds: holds))
  }

  /// A property that must hold once the schedule has run to its end, read with `await`:
  /// state kept in an actor, read where it lives.
  ///
  /// It is checked after the synchronous ones. Its own jobs run then, in order, and are
  /// neither choices nor steps of the schedule.
  ///
  /// - Parameters:
  ///   - name: How a failure names it ("the cache holds both entries").
  ///   - holds: Reads the state; `false` fails the schedule. A check that never returns
  ///     fails it too.
  public func atEnd(_ name: String, _ holds: @escaping @MainActor () async -> Bool) {
    awaitedFinalChecks.append(AwaitedCheck(name: name, holds: holds))
  }
}

/// Runs `scenario` under many schedules, holding the main actor until it is done (the
/// synchronous form), checking its invariants whenever no job is ready, and reports the
/// first schedule that breaks one, shrunk and narrated step by step.
///
/// A scenario is a person's actions, with no ordering of answers written in it: it creates
/// the model, lists the actions (``Exploration/action(_:_:)``) and states what must always
/// hold. The explorer then owns every choice that decides the interleaving:
/// - which of the scenario's ready jobs runs next, wherever more than one is ready: every
///   task's start and every `await` where it resumes, on the main actor, on another actor or
///   on the pool, each actor's jobs in the order they reached it, as the runtime runs them;
/// - when the next action is taken, and which open call of a ``ControlledFunction`` made
///   with `answers:` completes next, with its answer or one of its allowed failures;
/// - when ``Exploration/clock`` moves to its next deadline.
///
/// ```swift
/// let report = explore(.exhaustive()) { exploration in
///   let search = ControlledFunction<String, [String]>(answers: { [$0] })
///   let model = SearchModel(search: search.function)
///   exploration.action("type sw") { model.queryChanged("sw") }
///   exploration.action("type swift") { model.queryChanged("swift") }
///   exploration.atEnd("shows the last query's results") { model.results == ["swift"] }
/// }
/// #expect(report.failure == nil)
/// ```
///
/// The explorer owns the scenario's jobs and nothing else (as
/// ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2`` does): tasks the
/// scenario starts, with `Task { }` or through the provider, their child tasks, their actor
/// turns and main-actor hops, and their continuations resumed from any thread. Other tests'
/// work runs as usual beside it, so exploring tests need no `.serialized` suite, and the same
/// seed gives the same schedules every time, whatever runs alongside.
///
/// A failing schedule is first shrunk to the fewest departures from the default order
/// (jobs in enqueue order, the first option at every other choice) that still fail the same
/// way. It is then reported as an issue at the caller's line with the strategy, the reason,
/// a replay string and its steps, each naming the task and where it resumes. Pass the string
/// back as `replay:` to run exactly that schedule again.
///
/// Time is virtual: a sleep of the scenario's tasks, `Task.sleep` included, and a sleep on
/// ``Exploration/clock`` end when the explorer moves time, a choice it offers once no job can
/// run, so timeouts and debounces are explored against answers and actions without waiting.
///
/// Under Swift Testing on Linux the exploration runs in a child process of the test binary:
/// a schedule that traps (a continuation resumed twice, a failed `precondition`) or a job
/// that never returns is reported like any failing schedule, and the test run goes on (see
/// the article "Crashes and hangs in a schedule").
///
/// Limits: work on a dispatch queue or a thread of its own is outside the explorer's view,
/// though a continuation it resumes comes back; an actor's work is a choice where a task
/// enters or leaves the actor, not inside it.
///
/// The source-location parameters default to the caller's: see `TaskSourceLocation`.
///
/// - `strategy`: How each choice is made.
/// - `replay`: A failure's replay string: runs that one schedule instead.
/// - `outsideWait`: How long a schedule with nothing to choose, but something unfinished,
///   waits in real time for a job from outside (a sleep ending) before it counts as stuck.
/// - `scenario`: The actions and the invariants, run once per schedule.
/// - Returns: How many schedules ran, and the first failure, if any (also reported).
@MainActor @discardableResult
public func explore(
  _ strategy: ExplorationStrategy,
  replay: String? = nil,
  outsideWait: Duration? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ scenario: @escaping @MainActor (Exploration) async throws -> Void
) -> ExplorationReport {
  exploring(
    strategy, replay: replay, outsideWait: outsideWait,
    at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), scenario)
}

/// Runs `scenario` under many schedules, as the synchronous
/// ``explore(_:replay:outsideWait:fileID:filePath:line:column:_:)-6ler3`` does, giving the main
/// actor back to other work between schedules, while a schedule waits for work from outside
/// its scope, and while a child process explores.
///
/// This is the form to use in an `async` test, where Swift picks it for `await explore(…)`.
/// The synchronous form holds the main actor for the whole exploration, so every
/// `@MainActor` test running beside it (a tap awaiting a controlled call, a model's update)
/// waits that long, and may reach its own timeout. This form holds it for a turn of a
/// few milliseconds at most, or one schedule where a schedule takes longer, then lets the
/// main-actor work queued meanwhile run. The schedules, their order and the report are the
/// same as the synchronous form's.
///
/// ```swift
/// @Test @MainActor func searchShowsTheLastQuery() async {
///   let report = await explore(.exhaustive()) { exploration in
///     let search = ControlledFunction<String, [String]>(answers: { [$0] })
///     let model = SearchModel(search: search.function)
///     exploration.action("type sw") { model.queryChanged("sw") }
///     exploration.action("type swift") { model.queryChanged("swift") }
///     exploration.atEnd("shows the last query's results") { model.results == ["swift"] }
///   }
///   #expect(report.failure == nil)
/// }
/// ```
@MainActor @discardableResult
public func explore(
  _ strategy: ExplorationStrategy,
  replay: String? = nil,
  outsideWait: Duration? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ scenario: @escaping @MainActor (Exploration) async throws -> Void
) async -> ExplorationReport {
  await exploring(
    strategy, replay: replay, outsideWait: outsideWait,
    at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), scenario)
}

/// ``explore(_:replay:outsideWait:fileID:filePath:line:column:_:)-6ler3``, reporting at `site`,
/// with the timeout on one job's run that ends the test run (``JobWatchdog``) given, and the
/// exhaustive search's sleep sets off where `reduces` is false (to measure what they save).
@MainActor @discardableResult
package func exploring(
  _ strategy: ExplorationStrategy, replay: String? = nil, outsideWait: Duration? = nil,
  jobTimeout: Duration? = nil, reduces: Bool = true, at site: CallSite,
  _ scenario: @escaping @MainActor (Exploration) async throws -> Void
) -> ExplorationReport {
  reported(
    ExplorationProcess.run(
      replay: replay, site: site, strategy: strategy,
      explorers(strategy, outsideWait, jobTimeout, reduces, site, scenario)),
    at: site)
}

/// The `async` ``explore(_:replay:outsideWait:fileID:filePath:line:column:_:)-9mvqm``, reporting at
/// `site`, with the same knobs as the synchronous `exploring`.
@MainActor @discardableResult
package func exploring(
  _ strategy: ExplorationStrategy, replay: String? = nil, outsideWait: Duration? = nil,
  jobTimeout: Duration? = nil, reduces: Bool = true, at site: CallSite,
  _ scenario: @escaping @MainActor (Exploration) async throws -> Void
) async -> ExplorationReport {
  reported(
    await ExplorationProcess.run(
      replay: replay, site: site, strategy: strategy,
      explorers(strategy, outsideWait, jobTimeout, reduces, site, scenario)),
    at: site)
}

/// The `async` `exploring` of a test as written, reporting nothing: the caller reports a
/// failure in its own words (the test's own issues). The test keeps its own provider scope and
/// dependencies: a schedule installs neither the exploration's provider nor its clock, which
/// a test as written does not know of.
@MainActor
package func exploringAsWritten(
  _ strategy: ExplorationStrategy, replay: String?, at site: CallSite,
  _ scenario: @escaping @MainActor (Exploration) async throws -> Void
) async -> ExplorationReport {
  await ExplorationProcess.run(
    replay: replay, site: site, strategy: strategy,
    explorers(strategy, nil, nil, true, site, scenario, installs: false))
}

/// Builds the explorer of `scenario`, given where it writes its progress.
@MainActor
private func explorers(
  _ strategy: ExplorationStrategy, _ outsideWait: Duration?, _ jobTimeout: Duration?,
  _ reduces: Bool, _ site: CallSite,
  _ scenario: @escaping @MainActor (Exploration) async throws -> Void, installs: Bool = true
) -> (ExplorationProgress?) -> Explorer {
  { progress in
    Explorer(
      strategy: strategy, outsideWait: outsideWait, jobTimeout: jobTimeout, reduces: reduces,
      site: site, progress: progress
    ) {
      ExplorationSchedule.setup(scenario, installs: installs)
    }
  }
}

/// `report`, its failure reported at `site`; a child exploring for the test process reports
/// nothing: the test process does.
@MainActor
private func reported(_ report: ExplorationReport, at site: CallSite) -> ExplorationReport {
  guard !ExplorationProcess.isChild else { return report }
  if let failure = report.failure {
    FailureAttachments.record(failure, at: site)
    site.report(failure.description(replayingAt: site))
  } else if report.nondeterminism != nil {
    // Not the scenario's failure: the schedules that ran were real runs of it.
    site.warn(report.description)
  }
  return report
}
