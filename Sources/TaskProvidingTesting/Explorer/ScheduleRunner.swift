/// Runs one schedule of a scenario: starts it in a scope of its own, then, step by step,
/// runs the scope's ready jobs (letting the strategy choose among them) and takes a choice
/// (letting the strategy choose) whenever no job is ready, checking what must hold.
@MainActor
struct ScheduleRunner {
  let makeSetup: @MainActor () -> ScheduleSetup
  /// How long a schedule with nothing to choose, but something unfinished, waits in real time
  /// for a job from outside the scope before it counts as stuck. `nil`: only when something
  /// outside may still bring one (see `ScheduleUnderWay`), then two seconds.
  let outsideWait: Duration?
  /// Whether any schedule so far heard from a thread outside its scope.
  let outside = OutsideEvidence()
  /// Ends the run with a report if a job never returns.
  let watchdog: JobWatchdog?
  /// The strategy, for the watchdog's report.
  let strategy: String
  /// Where a child process exploring for the test process writes how far it got.
  var progress: ExplorationProgress?
  /// How many schedules have begun, counted by each as it begins.
  let begun = BegunSchedules()

  /// A count the schedules of one exploration share.
  final class BegunSchedules {
    var count = 0
  }

  /// What the schedules of one exploration learned about work outside their scopes.
  final class OutsideEvidence {
    /// A job came from a thread outside a scope.
    var heard = false
    /// A schedule has already waited once for outside work it had no sign of.
    var probed = false
    /// Tasks whose jobs ran without the scope's task executor as their preference, as a
    /// report names them, first seen first: a hop of theirs from an actor to an idle actor
    /// or to the pool may have run inline, with no job, and so with no choice.
    var unpreferred: [String] = []
    /// The most such tasks one schedule met, named or not.
    var unpreferredCount = 0

    /// Whether an actor's turn ran where task creation cannot be watched, and the names of
    /// the first few such actors.
    var ranUnwatchedActorTurn = false
    var unwatchedActors: [String] = []

    /// Notes the actors whose turns one schedule ran where task creation cannot be watched.
    func noteUnwatchedActorTurns(_ turns: (ran: Bool, actors: [String])) {
      guard turns.ran else { return }
      ranUnwatchedActorTurn = true
      for name in turns.actors where !unwatchedActors.contains(name) && unwatchedActors.count < 3 {
        unwatchedActors.append(name)
      }
    }

    /// Notes the tasks one schedule ran without the scope's preference.
    func noteUnpreferred(_ names: [String?]) {
      guard !names.isEmpty else { return }
      unpreferredCount = max(unpreferredCount, names.count)
      for case let name? in names where !unpreferred.contains(name) && unpreferred.count < 5 {
        unpreferred.append(name)
      }
    }
  }

  /// How long a schedule waits for outside work it knows of, unless `outsideWait` says.
  static let defaultOutsideWait = Duration.seconds(2)
  /// How long a schedule that knows of no outside work gives a thread that may be resuming
  /// one of its tasks right now, before it counts as stuck.
  static let grace = Duration.milliseconds(2)
  /// How long the first schedule of an exploration that gets stuck with no sign of outside
  /// work waits, once, for a continuation handed to a thread outside the scope (a dispatch
  /// queue, a callback): such work shows itself within this, and the exploration then
  /// waits for it in every schedule.
  static let probe = Duration.milliseconds(100)
  /// How long a sleep of the scope's tasks may take to end, at most, before the schedule
  /// counts as stuck.
  static let longestSleep = Duration.seconds(60)

  /// Choices a schedule may take before it counts as endless.
  static let maximumSteps = 10_000
  /// Jobs a schedule may run before it counts as endless (a task that loops, yielding). The
  /// explorer's own tests lower it, to see a loop reported without running a million jobs.
  @TaskLocal static var maximumJobs = 1_000_000

  /// Runs one schedule to its end, `decider` making its decisions, holding the main actor
  /// throughout, its waits for work outside the scope included.
  func run<D: ScheduleDecider>(_ decider: inout D, narrate: Bool = false) -> ScheduleRun {
    let schedule = ScheduleUnderWay(of: self, decider: decider, narrate: narrate)
    while true {
      if let run = schedule.advance(waiting: true) {
        decider = schedule.decider
        return run
      }
    }
  }

  /// A job that did not return, as the watchdog reports it: the task it runs with where
  /// that task resumed, and the replay string of the schedule up to it.
  nonisolated static func describe(_ job: ReadyJob, after trail: [ScheduleRun.Taken]) -> String {
    "\(JobWatchdog.describe(job)), in a schedule that replays as "
      + "\"\(ReplayString.encode(ScheduleRun(decisions: trail).departures))\" up to it"
  }

  /// Runs the scope's jobs in enqueue order until none is ready; returns how many ran.
  @discardableResult
  static func settle(_ scope: JobScope) -> Int {
    var order = JobPicker(.fifo)
    var jobsRun = 0
    _ = scope.drain(
      until: .now, ended: { scope.isIdle }, order: &order, jobsRun: &jobsRun,
      stopAfter: maximumJobs)
    return jobsRun
  }

  /// Why nothing more can come: nothing outside the scope was under way, or what was did
  /// not bring a job in time.
  static func stuckCause(_ waited: Duration?) -> String {
    guard let waited else {
      return "; nothing outside the explorer's view was under way (no sleep, no job from"
        + " another thread so far), so it awaits something no task, call or clock will give"
        + " (if a thread of its own or a dispatch queue resumes it, pass outsideWait:)"
    }
    return "; nothing came from outside the explorer's view (a sleep, a thread of its own,"
      + " a dispatch queue) within \(TimeoutScale.describe(waited))"
  }

  /// What a stuck schedule adds when `count` of its tasks ran without the scope's executor:
  /// a sleep of theirs keeps real time, unseen, and may be what it waits for.
  static func unseenSleepCause(_ count: Int) -> String {
    guard count > 0 else { return "" }
    return "; \(count == 1 ? "a task" : "\(count) tasks") of the scenario ran without the"
      + " explorer's executor (started with `Task { }` where this platform does not let the"
      + " explorer see tasks being created), and a sleep of such a task keeps real time: spawn it"
      + " through the provider to have its sleeps on virtual time, or give `outsideWait` as long"
      + " as its sleeps"
  }

  /// Where a schedule stopped, in the units its steps are narrated in: jobs run and choices
  /// taken, a story's lines being either.
  static func after(choices: Int, jobs: Int) -> String {
    guard choices + jobs > 0 else { return " before anything ran" }
    return " after \(jobs) \(jobs == 1 ? "job" : "jobs") and \(choices)"
      + " \(choices == 1 ? "choice" : "choices")"
  }

  static func replayEnded(at decision: Int) -> ScheduleFailure {
    ScheduleFailure(
      kind: .replay,
      reason: "the replay string names an option that is not there at decision \(decision)")
  }
}

/// Names each job and choice by what it belongs to, the same way in every run of a scenario:
/// tasks and actors by the order they were first seen in, so PCT can give each a priority.
struct JobKeys {
  private var tasks: [TaskIdentity: Int] = [:]
  private var actors: [UInt: Int] = [:]
  /// The steps of the job that ran last, once a sampler that counts steps says so: an
  /// actor's turn first seen after it was enqueued by that job, so it goes on with its
  /// steps (the runtime clears the current task before it enqueues the turn).
  var lastRan: OptionKey?
  /// Each actor's turn's strand, by its place in the enqueue order, as first seen.
  private var turnStrands: [Int: OptionKey] = [:]

  mutating func footprint(of job: ReadyJob) -> OptionFootprint {
    if let task = job.task {
      return OptionFootprint(
        key: .task(number(task)), place: job.lane == .mainActor ? .mainActor : .pool,
        task: task.address)
    }
    // Not a task: an actor's turn.
    let actor = number(actor: job.actor ?? unsafeBitCast(job.job, to: UInt.self))
    var strand: OptionKey?
    if let known = turnStrands[job.sequence] {
      strand = known
    } else if let lastRan {
      turnStrands[job.sequence] = lastRan
      strand = lastRan
    }
    return OptionFootprint(key: .actor(actor), place: .actor(actor), task: nil, strand: strand)
  }

  /// The record of `job`, which ran with `effects` while `ready` were ready.
  mutating func record(
    of job: ReadyJob, effects: JobEffects, ready: [ReadyJob]
  ) -> JobRecord {
    let footprint = footprint(of: job)
    var actors = Set<Int>()
    if case .actor(let number) = footprint.place { actors.insert(number) }
    return record(
      footprint, effects: effects, mainActor: job.lane == .mainActor || effects.mainActor,
      actors: actors,
      // A hop onto an actor whose turn is ready joins its queue unseen.
      joinable: ready.filter { $0.task == nil }.map {
        $0.actor ?? unsafeBitCast($0.job, to: UInt.self)
      })
  }

  /// The record of a choice taken with `effects`: an action's code runs on the main actor
  /// and enqueues what its effects say; an answer or a move of the clock runs no code of
  /// the scenario and is known by its footprint.
  mutating func record(ofChoice footprint: OptionFootprint, effects: JobEffects) -> JobRecord {
    record(footprint, effects: effects, mainActor: true, actors: [], joinable: [])
  }

  /// The record of the step `footprint`: `actors` (by number), the actors its effects name
  /// and those it may have joined the queue of (`joinable`, by address), and the tasks its
  /// effects name.
  private mutating func record(
    _ footprint: OptionFootprint, effects: JobEffects, mainActor: Bool, actors: Set<Int>,
    joinable: [UInt]
  ) -> JobRecord {
    var actors = actors
    for address in effects.actors + joinable { actors.insert(number(actor: address)) }
    var woke = Set<OptionKey>()
    for task in effects.tasks { woke.insert(.task(number(task, startedBy: footprint.key))) }
    return JobRecord(
      footprint: footprint, mainActor: mainActor, actors: actors, woke: woke,
      sleeps: effects.sleeps)
  }

  /// Whether a task is named by where it was started (the option whose job started it, and
  /// how many that option had started before), rather than by when this run first met it:
  /// the same in every run that starts it the same way, whatever ran between, so records
  /// of jobs from different schedules can be compared.
  var namesByOrigin = false
  /// How many tasks each option has started, when naming by origin.
  private var started: [OptionKey: Int] = [:]

  private mutating func number(_ task: TaskIdentity, startedBy origin: OptionKey? = nil) -> Int {
    if let number = tasks[task] { return number }
    guard namesByOrigin else {
      tasks[task] = tasks.count
      return tasks.count - 1
    }
    // Tasks started by no job the scope saw (the scenario's body, its actions) count from
    // the scenario.
    let origin = origin ?? .action(-1)
    let index = started[origin, default: 0]
    started[origin] = index + 1
    var generator = SplitMix64(seed: Self.code(origin) ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
    let number = Int(truncatingIfNeeded: generator.next() >> 1)
    tasks[task] = number
    return number
  }

  /// A number for `key`, the same in every process (a `Hasher`'s is not).
  private static func code(_ key: OptionKey) -> UInt64 {
    switch key {
    case .task(let number): UInt64(truncatingIfNeeded: number) &* 31 &+ 1
    case .actor(let number): UInt64(truncatingIfNeeded: number) &* 31 &+ 2
    case .action(let number): UInt64(truncatingIfNeeded: number) &* 31 &+ 3
    case .call(let number): UInt64(truncatingIfNeeded: number) &* 31 &+ 4
    case .clock: 5
    case .sleeps: 6
    }
  }

  private mutating func number(actor address: UInt) -> Int {
    if let number = actors[address] { return number }
    actors[address] = actors.count
    return actors.count - 1
  }
}
