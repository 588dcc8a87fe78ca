/// Runs one schedule of a scenario: starts it in a scope of its own, then, step by step,
/// runs the scope's ready jobs (letting the strategy choose among them) and takes a choice
/// (letting the strategy choose) whenever no job is ready, checking what must hold.
@MainActor
struct ScheduleRunner {
  let makeSetup: @MainActor () -> ScheduleSetup
  /// How long a schedule with nothing to choose, but something unfinished, waits in real time
  /// for a job from outside the scope before it counts as stuck. `nil`: only when something
  /// outside may still bring one (see ``check(_:choices:after:scope:)``), then two seconds.
  let outsideWait: Duration?
  /// Whether any schedule so far heard from a thread outside its scope.
  let outside = OutsideEvidence()
  /// Ends the run with a report if a job never returns.
  let watchdog: JobWatchdog?
  /// The strategy, for the watchdog's report.
  let strategy: String
  /// Where a child process exploring for the test process writes how far it got.
  var progress: ExplorationProgress?

  /// What the schedules of one exploration learned about work outside their scopes.
  final class OutsideEvidence {
    /// A job came from a thread outside a scope.
    var heard = false
    /// A schedule has already waited once for outside work it had no sign of.
    var probed = false
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
  /// Jobs a schedule may run before it counts as endless (a task that loops, yielding).
  static let maximumJobs = 1_000_000

  /// Runs one schedule as `decider` says. `narrate`: its steps are told (in `steps`), or,
  /// with `tellingLater`, kept to be told (in `story`).
  func run(
    _ decider: inout some ScheduleDecider, narrate: Bool = false, tellingLater: Bool = false
  ) -> ScheduleRun {
    guard let scope = JobScope.open() else {
      var run = ScheduleRun()
      run.failure = ScheduleFailure(
        kind: .unavailable,
        reason: "exploring needs the concurrency runtime's enqueue hooks: "
          + RuntimeHooks.unavailability)
      return run
    }
    let setup = makeSetup()
    let narrator = narrate ? ScheduleNarrator(taskLabel: setup.taskLabel) : nil
    if let narrator { scope.trace(narrator.observe) }
    progress?.scheduleBegins()
    progress?.narrating(narrator)
    defer { progress?.narrating(nil) }
    scope.adopting { setup.start() }
    var run = steps(in: scope, of: setup, &decider, narrator: narrator)
    // Leave nothing behind: end what is open, let what that releases run; what it does may
    // open more, so a few rounds, until one runs nothing: only a job can open more.
    for _ in 0..<4 {
      scope.adopting { setup.cleanUp() }
      if Self.settle(scope) == 0 { break }
    }
    if !scope.close() {
      run.failure = ScheduleFailure(kind: .hookReplaced, reason: JobScope.hookReplacedMessage)
    }
    if let narrator {
      if tellingLater { run.story = narrator.story() } else { run.steps = narrator.steps() }
      narrator.release()
    }
    return run
  }

  /// The schedule's steps, until it ends or fails.
  ///
  /// At every step the options are the ready jobs, oldest first, then the scenario's own
  /// choices: its next action, each open call's outcomes. The clock is an option only once
  /// no job is ready. Option 0, the default, is the oldest ready job,
  /// or the first choice when none is ready; taking anything else while a job is ready is a
  /// departure from the default order.
  private func steps(
    in scope: JobScope, of setup: ScheduleSetup, _ decider: inout some ScheduleDecider,
    narrator: ScheduleNarrator?
  ) -> ScheduleRun {
    var run = ScheduleRun()
    var keys = JobKeys()
    var jobs = 0
    var steps = 0
    while true {
      let runnable = scope.runnable
      var choices = setup.choices()
      if !runnable.isEmpty {
        // Time passes only when nothing else can happen. The clock is the setup's last option,
        // if it offers it; checked without a closure, which in this main-actor code would
        // check its isolation at run time on every step.
        if let last = choices.last, last.kind == .time { choices.removeLast() }
      } else {
        // A sleep of the scenario's tasks ends on the scope's virtual time: an option beside
        // an answer or an action, which may come before it or after it.
        let time = scope.virtualTime
        if let deadline = time.nextDeadline {
          choices.append(
            ScheduleChoice(
              kind: .time, key: .sleeps,
              label: "time reaches \(deadline), ending a sleep",
              apply: { _ = scope.wakeEarliestTimer() }))
        }
        switch check(setup, choices: choices, after: steps, scope: scope) {
        case .goOn: break
        case .wait: continue
        case .end(let failure):
          run.failure = failure
          return run
        }
      }
      let count = runnable.count + choices.count
      var pick = 0
      if count > 1 {
        let decision = Decision(
          kind: runnable.isEmpty ? .choice : .job, index: run.decisions.count, count: count,
          options: { [runnable, choices] in
            // One array, filled in a loop: a closure per element, in main-actor code, would
            // check its isolation at run time for each.
            var options: [OptionFootprint] = []
            options.reserveCapacity(count)
            for job in runnable { options.append(keys.footprint(of: job)) }
            for choice in choices { options.append(choice.footprint) }
            return options
          })
        guard let chosen = decider.decide(decision) else {
          run.failure = Self.replayEnded(at: run.decisions.count)
          return run
        }
        pick = chosen
        run.decisions.append(.init(kind: decision.kind, count: count, pick: pick))
        if pick != 0 { progress?.departed(at: decision.index, option: pick) }
      }
      if pick < runnable.count {
        narrator?.job(runnable[pick], oldest: runnable[0], decided: count > 1)
        // The decisions, not their departures: this runs for every job, the report rarely.
        watchdog?.begin(runnable[pick], after: run.decisions)
        scope.run(runnable[pick])
        watchdog?.end()
        narrator?.didRun()
        jobs += 1
        guard jobs < Self.maximumJobs else {
          run.failure = ScheduleFailure(
            kind: .tooManyJobs,
            reason:
              "the schedule ran \(jobs) jobs without settling; a task may loop forever")
          return run
        }
        continue
      }
      guard steps < Self.maximumSteps else {
        run.failure = ScheduleFailure(
          kind: .tooManySteps,
          reason: "the schedule did not end within \(Self.maximumSteps) steps")
        return run
      }
      let choice = choices[pick - runnable.count]
      steps += 1
      if let narrator {
        // Taken ahead of a ready job, or of an earlier option: a departure from the default.
        if let first = runnable.first {
          let actorName = first.task == nil ? RuntimeHooks.actorTypeName(ofTurn: first.job) : nil
          narrator.choice(choice.label, aheadOf: .job(first.task, actorName: actorName))
        } else {
          narrator.choice(choice.label, aheadOf: pick > 0 ? .choice(choices[0].label) : nil)
        }
      }
      scope.adopting { choice.apply() }
    }
  }

  /// What a step with no job ready finds.
  private enum Check {
    /// There are choices to take.
    case goOn
    /// A job came from outside while it waited: take the next step.
    case wait
    /// The schedule is over, failed or not.
    case end(ScheduleFailure?)
  }

  /// Checks what must hold whenever no job is ready; when nothing is left to choose either,
  /// waits for a job from outside or ends the schedule.
  private func check(
    _ setup: ScheduleSetup, choices: [ScheduleChoice], after steps: Int, scope: JobScope
  ) -> Check {
    if let error = setup.thrown() {
      return .end(ScheduleFailure(kind: .threw(error), reason: "the scenario threw \(error)"))
    }
    if let broken = setup.brokenInvariant() {
      return .end(
        ScheduleFailure(
          kind: .invariant(broken), reason: "\"\(broken)\" did not hold" + Self.after(steps)))
    }
    guard choices.isEmpty else { return .goOn }
    let pending = setup.pendingWork()
    let finished = setup.hasReturned() && pending.isEmpty
    // Nothing to choose, yet something is unfinished. A job can still come only from
    // outside the scope: a sleep of its tasks ending, or a thread of its own, a dispatch
    // queue or a callback resuming one of its tasks. Real time passes here only for those.
    var waited: Duration?
    if !finished {
      if scope.hasHeardFromOutside { outside.heard = true }
      let sleeps = scope.pendingSleeps
      let wait: Duration
      if sleeps > 0 {
        wait = Self.longestSleep
      } else if let outsideWait {
        wait = outsideWait
      } else if outside.heard {
        wait = Self.defaultOutsideWait
      } else if !outside.probed {
        outside.probed = true
        wait = Self.probe
      } else {
        wait = Self.grace
      }
      if scope.waitForJob(until: .now + FailureBoundScale.scaled(wait)) {
        if scope.hasHeardFromOutside { outside.heard = true }
        return .wait
      }
      waited = sleeps > 0 || outsideWait != nil || outside.heard ? wait : nil
    }
    guard setup.hasReturned() else {
      return .end(
        ScheduleFailure(
          kind: .stuck,
          reason: "nothing can run and the scenario has not returned" + Self.after(steps)
            + Self.stuckCause(waited)))
    }
    guard pending.isEmpty else {
      return .end(
        ScheduleFailure(
          kind: .pendingTasks,
          reason: "nothing can run" + Self.after(steps) + ", yet tasks are still pending: "
            + pending.joined(separator: "; ")
            + " (they may await a call of a function made without `answers:`)"
            + Self.stuckCause(waited)))
    }
    if let broken = setup.brokenFinalCheck() {
      return .end(
        ScheduleFailure(
          kind: .finalCheck(broken), reason: "\"\(broken)\" did not hold at the end"))
    }
    return .end(nil)
  }

  /// A job that did not return, as the watchdog reports it: the task it runs with where
  /// that task resumed, and the replay string of the schedule up to it.
  nonisolated static func describe(_ job: ReadyJob, after trail: [ScheduleRun.Taken]) -> String {
    "\(JobWatchdog.describe(job)), in a schedule that replays as "
      + "\"\(ReplayString.encode(ScheduleRun(decisions: trail).departures))\" up to it"
  }

  /// Runs the scope's jobs in enqueue order until none is ready; returns how many ran.
  @discardableResult
  private static func settle(_ scope: JobScope) -> Int {
    var order = JobPicker(.fifo)
    var jobsRun = 0
    _ = scope.drain(
      until: .now, ended: { scope.isIdle }, order: &order, jobsRun: &jobsRun,
      stopAfter: maximumJobs)
    return jobsRun
  }

  /// Why nothing more can come: nothing outside the scope was under way, or what was did
  /// not bring a job in time.
  private static func stuckCause(_ waited: Duration?) -> String {
    guard let waited else {
      return "; nothing outside the explorer's view was under way (no sleep, no job from"
        + " another thread so far), so it awaits something no task, call or clock will give"
        + " (if a thread of its own or a dispatch queue resumes it, pass outsideWait:)"
    }
    return "; nothing came from outside the explorer's view (a sleep, a thread of its own,"
      + " a dispatch queue) within \(FailureBoundScale.describe(waited))"
  }

  private static func after(_ steps: Int) -> String {
    steps == 0 ? " before the first choice" : " after step \(steps)"
  }

  private static func replayEnded(at decision: Int) -> ScheduleFailure {
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

  mutating func footprint(of job: ReadyJob) -> OptionFootprint {
    if let task = job.task {
      return OptionFootprint(
        key: .task(number(task)), place: job.lane == .mainActor ? .mainActor : .pool,
        task: task.address)
    }
    // Not a task: an actor's turn.
    let actor = number(actor: job.actor ?? unsafeBitCast(job.job, to: UInt.self))
    return OptionFootprint(key: .actor(actor), place: .actor(actor), task: nil)
  }

  private mutating func number(_ task: TaskIdentity) -> Int {
    if let number = tasks[task] { return number }
    tasks[task] = tasks.count
    return tasks.count - 1
  }

  private mutating func number(actor address: UInt) -> Int {
    if let number = actors[address] { return number }
    actors[address] = actors.count
    return actors.count - 1
  }
}
