import LockSupport

/// One schedule of a scenario, under way: started in a scope of its own, then advanced step by
/// step, running the scope's ready jobs (the decider choosing among them) and taking a choice
/// (the decider choosing) whenever no job is ready, checking what must hold.
///
/// It stops where nothing can run until a job comes from outside its scope (a sleep that
/// keeps real time, a thread of its own, a dispatch queue): ``advance(waiting:)`` either waits
/// there, holding the main actor, or returns so that its caller can wait without holding it
/// (``outsideWork``) and advance it again.
@MainActor
final class ScheduleUnderWay<D: ScheduleDecider> {
  /// The decider, as the schedule has left it so far.
  private(set) var decider: D
  private let context: ExplorationContext
  /// `nil` when the runtime lacks the hooks: the schedule fails at once.
  private let scope: JobScope?
  private let setup: ScheduleSetup
  private let narrator: ScheduleNarrator?
  /// Whether its steps are kept to be narrated later (in the run's `narration`) rather than narrated as
  /// it ends (in its `steps`).
  private let narratesLater: Bool
  private var run = ScheduleRun()
  private var keys = JobKeys()
  private var jobs = 0
  private var steps = 0
  /// Read once: a task-local, which every job would otherwise look up.
  private let maximumJobs = ScheduleLimits.maximumJobs
  /// Where the schedule waits for a job from outside its scope, if it does.
  private var waiting: OutsideWait?
  /// Whether its driver let go of the scope to wait without holding the main actor: it may
  /// be advanced again on another thread.
  private var isPaused = false
  /// When the caller's turn on the main actor ends, where the caller does not block: a
  /// schedule that runs many jobs (one that loops) then returns between two of them, so that
  /// the caller gives the main actor back, as it does between schedules.
  private var turnEnds: ContinuousClock.Instant?
  /// How many jobs run between two looks at the clock for the end of the turn.
  private static var jobsBetweenLooks: Int { 1_024 }

  /// A wait for a job from outside the scope: until when, and what that wait stands for.
  private struct OutsideWait {
    let deadline: ContinuousClock.Instant
    /// How long the wait was, as a failure reports it; `nil` if only a grace period.
    let reported: Duration?
    /// Whether it waits for a sleep to end in real time (``SleepFloor``), not for outside
    /// work: when it passes, the sleep's end is a choice, and nothing is stuck.
    var forSleep = false
  }

  /// Starts a schedule of `context`'s scenario, `decider` making its decisions.
  init(of context: ExplorationContext, decider: D, narrate: Bool, narratingLater: Bool = false) {
    self.context = context
    self.decider = decider
    self.narratesLater = narratingLater
    keys.namesByOrigin = decider.recordsJobs
    let scope = JobScope.open()
    self.scope = scope
    // Main-actor code of the scenario's, run as the scope's main-actor jobs run, from here on
    // (see ``MainActorStep``).
    let setup = scope == nil ? context.makeSetup() : MainActorStep.run { context.makeSetup() }
    self.setup = setup
    narrator = narrate ? ScheduleNarrator(taskLabel: setup.taskLabel) : nil
    guard let scope else { return }
    if let narrator { scope.trace(narrator.observe) }
    context.begun.count += 1
    context.progress?.scheduleBegins()
    context.progress?.narrating(narrator)
    MainActorStep.run { scope.adopting { setup.start() } }
    context.progress?.narrating(nil)
    // Its first advance may come after an await, on another of the main queue's threads.
    scope.pauseDriving()
    isPaused = true
  }

  /// What the schedule waits for when ``advance(waiting:)`` returned to let its caller wait:
  /// a job from outside its scope.
  var outsideWork: OutsideWork? {
    guard let scope, let waiting else { return nil }
    return OutsideWork(scope: scope, until: waiting.deadline)
  }

  /// Runs the schedule on, and returns how it went once it has ended. Where it must wait for
  /// a job from outside its scope, it waits if `waiting`, else returns `nil` to be advanced
  /// again once one may have come (``outsideWork``).
  func advance(waiting blocks: Bool) -> ScheduleRun? {
    guard let scope else {
      run.failure = ScheduleFailure(
        kind: .unavailable,
        reason: "exploring needs the concurrency runtime's enqueue hooks: "
          + RuntimeHooks.unavailability)
      return run
    }
    context.progress?.narrating(narrator)
    defer { context.progress?.narrating(nil) }
    turnEnds = blocks ? nil : MainActorTurn.end
    return MainActorStep.run { advance(in: scope, waiting: blocks) }
  }

  private func advance(in scope: JobScope, waiting blocks: Bool) -> ScheduleRun? {
    if isPaused {
      scope.resumeDriving()
      isPaused = false
    }
    guard stepped(in: scope, waiting: blocks) else {
      scope.pauseDriving()
      isPaused = true
      return nil
    }
    // Leave nothing behind: end what is open, let what that releases run; what it does may
    // open more, so a few rounds, until one runs nothing: only a job can open more.
    for _ in 0..<4 {
      scope.adopting { setup.cleanUp() }
      if settle(scope) == 0 { break }
    }
    // Work from outside that came while the schedule had jobs to run, so that it never
    // waited, is work from outside all the same.
    if scope.hasHeardFromOutside { context.outside.heard = true }
    context.outside.noteUnpreferred(scope.unpreferredTaskNames)
    context.outside.noteUnwatchedActorTurns(scope.unwatchedActorTurns)
    if !scope.close() {
      run.failure = ScheduleFailure(kind: .hookReplaced, reason: JobScope.hookReplacedMessage)
    }
    if let narrator {
      if narratesLater {
        run.narration = narrator.narration()
      } else {
        run.steps = narrator.steps()
        run.everyStep = narrator.everyStep()
      }
      narrator.release()
    }
    return run
  }

  /// Takes the schedule's steps until it ends or fails (`true`), or must wait for a job from
  /// outside and does not block (`false`).
  ///
  /// At every step the options are the ready jobs, oldest first, then the scenario's own
  /// choices: its next action, each open call's outcomes. The clock is an option only once
  /// no job is ready. Option 0, the default, is the oldest ready job, or the first choice
  /// when none is ready; taking anything else while a job is ready is a departure from the
  /// default order.
  private func stepped(in scope: JobScope, waiting blocks: Bool) -> Bool {
    while true {
      let runnable = scope.runnable
      var choices = setup.choices()
      if !runnable.isEmpty {
        // A job came while the caller waited for one from outside.
        if waiting != nil { _ = arrived(scope) }
        // Time passes only when nothing else can happen. The clock is the setup's last option,
        // if it offers it; checked without a closure, which in this main-actor code would
        // check its isolation at run time on every step.
        if let last = choices.last, last.kind == .time { choices.removeLast() }
      } else {
        // A sleep of the scenario's tasks ends on the scope's virtual time: an option beside
        // an answer or an action, which may come before it or after it.
        let time = scope.virtualTime
        // Where sleeps keep real time too, the earliest is a choice once it may end.
        var sleepDue: ContinuousClock.Instant?
        if let realDeadline = time.nextRealDeadline, ContinuousClock.now < realDeadline {
          sleepDue = realDeadline
        } else if let deadline = time.nextDeadline {
          if waiting?.forSleep == true { waiting = nil }
          choices.append(
            ScheduleChoice(
              kind: .time, key: .sleeps,
              label: "time reaches \(deadline), ending a sleep",
              apply: { _ = scope.wakeEarliestTimer() }))
        }
        switch check(choices: choices, scope: scope, waiting: blocks, sleepDue: sleepDue) {
        case .goOn: break
        case .wait: continue
        case .suspend: return false
        case .end(let failure):
          run.failure = failure
          return true
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
            for job in runnable { options.append(self.keys.footprint(of: job)) }
            for choice in choices { options.append(choice.footprint) }
            return options
          })
        guard let chosen = decider.decide(decision) else {
          if let divergence = decider.divergence {
            run.divergence = divergence
          } else {
            run.failure = ScheduleFailure.replayEnded(at: run.decisions.count)
          }
          return true
        }
        pick = chosen
        run.decisions.append(.init(kind: decision.kind, count: count, pick: pick))
        if pick != 0 { context.progress?.departed(at: decision.index, option: pick) }
      } else if decider.countsSteps {
        decider.took(runnable.isEmpty ? choices[0].footprint : keys.footprint(of: runnable[0]))
      } else if decider.recordsJobs {
        let only = runnable.isEmpty ? choices[0].footprint : keys.footprint(of: runnable[0])
        guard decider.mayTake(only) else {
          run.failure = ScheduleFailure.replayEnded(at: run.decisions.count)
          return true
        }
      }
      if pick < runnable.count {
        narrator?.job(runnable[pick], oldest: runnable[0], decided: count > 1)
        // The decisions, not their departures: this runs for every job, the report rarely.
        context.watchdog?.begin(runnable[pick], after: run.decisions)
        if decider.recordsJobs {
          let effects = scope.runRecordingEffects(runnable[pick])
          decider.ran(keys.record(of: runnable[pick], effects: effects, ready: runnable))
        } else {
          scope.run(runnable[pick])
        }
        context.watchdog?.end()
        if decider.countsSteps { keys.lastRan = keys.footprint(of: runnable[pick]).counted }
        narrator?.didRun()
        jobs += 1
        guard jobs < maximumJobs else {
          let ready = scope.runnable
          // A task rather than an actor's turn: the turn runs some task, which loops.
          let job = ready.first { $0.task != nil } ?? runnable[pick]
          let looping =
            job.task.flatMap {
              setup.taskLabel($0.address)
                ?? TaskCreation.name(ofTask: $0.address).map {
                  "task '\($0)'"
                }
            } ?? JobWatchdog.describe(job)
          // The job that just ran is the loop's too, though its next may be an actor's turn.
          narrator?.stopped(
            looping: true, ready: ready.compactMap(\.task) + [runnable[pick].task].compactMap { $0 }
          )
          run.failure = ScheduleFailure(
            kind: .tooManyJobs,
            reason: "the schedule ran \(jobs) jobs without settling: \(looping) was still"
              + " running, as a task does that loops (on `Task.yield()`, or polling);"
              + " a task that waits for something that never comes is reported as stuck"
              + (narrator == nil ? "" : ". The story's last step says where each task was"))
          return true
        }
        if let turnEnds, jobs % Self.jobsBetweenLooks == 0, ContinuousClock.now >= turnEnds {
          return false
        }
        continue
      }
      guard steps < ScheduleLimits.maximumSteps else {
        run.failure = ScheduleFailure(
          kind: .tooManySteps,
          reason: "the schedule did not end within \(ScheduleLimits.maximumSteps) steps")
        return true
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
      if decider.recordsJobs {
        let footprint = choice.footprint
        var effects = JobEffects()
        if footprint.runsCode {
          effects = scope.adoptingRecordingEffects { choice.apply() }
        } else {
          scope.adopting { choice.apply() }
        }
        decider.ran(keys.record(ofChoice: footprint, effects: effects))
      } else {
        scope.adopting { choice.apply() }
      }
    }
  }

  /// Runs the scope's jobs in enqueue order until none is ready; returns how many ran.
  @discardableResult
  private func settle(_ scope: JobScope) -> Int {
    var order = JobPicker(.fifo)
    var jobsRun = 0
    _ = scope.drain(
      until: .now, ended: { scope.isIdle }, order: &order, jobsRun: &jobsRun,
      stopAfter: maximumJobs)
    return jobsRun
  }

  /// What a step with no job ready finds.
  private enum Check {
    /// There are choices to take.
    case goOn
    /// A job came from outside while it waited: take the next step.
    case wait
    /// A job can come only from outside, and the caller waits for it.
    case suspend
    /// The schedule is over, failed or not.
    case end(ScheduleFailure?)
  }

  /// Checks what must hold whenever no job is ready; when nothing is left to choose either,
  /// waits for a job from outside (or, unless `blocks`, says so) or ends the schedule.
  /// `sleepDue`: when a sleep that keeps real time may end, if one is not yet due; until
  /// then the schedule waits for it, or for a job from outside.
  private func check(
    choices: [ScheduleChoice], scope: JobScope, waiting blocks: Bool,
    sleepDue: ContinuousClock.Instant?
  ) -> Check {
    if let error = setup.thrown() {
      return .end(ScheduleFailure(kind: .threw(error), reason: "the scenario threw \(error)"))
    }
    if let broken = setup.brokenInvariant() ?? firstBroken(setup.awaitedInvariants(), in: scope) {
      return .end(
        ScheduleFailure(
          kind: .invariant(broken),
          reason: "\"\(broken)\" did not hold"
            + (narrator == nil ? ScheduleFailure.after(choices: steps, jobs: jobs) : "")))
    }
    guard choices.isEmpty else { return .goOn }
    // Once the scenario is over, a sleep still under way ends no schedule's work: it goes on
    // in real time once the scope closes, as it would after a plain run.
    if let sleepDue, !(setup.hasReturned() && setup.pendingWork().isEmpty) {
      if blocks {
        if scope.waitForJob(until: sleepDue) { return arrived(scope) }
        return .wait
      }
      if !scope.isIdle { return arrived(scope) }
      waiting = OutsideWait(deadline: sleepDue, reported: nil, forSleep: true)
      return .suspend
    }
    let pending = setup.pendingWork()
    let finished = setup.hasReturned() && pending.isEmpty
    // Nothing to choose, yet something is unfinished. A job can still come only from
    // outside the scope: a sleep of its tasks ending, or a thread of its own, a dispatch
    // queue or a callback resuming one of its tasks. Real time passes here only for those.
    var waited: Duration?
    if !finished {
      let wait = waiting ?? startWaiting(scope)
      if blocks {
        if scope.waitForJob(until: wait.deadline) { return arrived(scope) }
      } else if !scope.isIdle {
        return arrived(scope)
      } else if ContinuousClock.now < wait.deadline {
        return .suspend
      }
      waiting = nil
      waited = wait.reported
    }
    if !finished { narrator?.stopped(looping: false, ready: []) }
    // A narrated schedule's story ends where it stopped, and narrates its steps; the count is
    // said only where no story is narrated.
    let stoppedAt = narrator == nil ? ScheduleFailure.after(choices: steps, jobs: jobs) : ""
    guard setup.hasReturned() else {
      return .end(
        ScheduleFailure(
          kind: .stuck,
          reason: "nothing can run and the scenario has not returned" + stoppedAt
            + ScheduleFailure.stuckCause(waited)
            + ScheduleFailure.unseenSleepCause(scope.unpreferredTaskNames.count)))
    }
    guard pending.isEmpty else {
      return .end(
        ScheduleFailure(
          kind: .pendingTasks,
          reason: "nothing can run" + stoppedAt + ", yet tasks are still pending: "
            + pending.joined(separator: "; ")
            + " (they may await a call of a function made without `answers:`)"
            + ScheduleFailure.stuckCause(waited)
            + ScheduleFailure.unseenSleepCause(scope.unpreferredTaskNames.count)))
    }
    if let broken = setup.brokenFinalCheck() ?? firstBroken(setup.awaitedFinalChecks(), in: scope) {
      return .end(
        ScheduleFailure(
          kind: .finalCheck(broken), reason: "\"\(broken)\" did not hold at the end"))
    }
    return .end(nil)
  }

  /// The name of the first of `checks` that does not hold, each run to its end in `scope`
  /// while no other job of it is ready: its jobs run in order, are no steps of the schedule,
  /// and are not narrated. A check that does not return once its jobs have run does not hold.
  private func firstBroken(_ checks: [AwaitedCheck], in scope: JobScope) -> String? {
    guard !checks.isEmpty else { return nil }
    if narrator != nil { scope.trace(nil) }
    defer { if let narrator { scope.trace(narrator.observe) } }
    for check in checks {
      let held = Locked<Bool?>(nil)
      _ = scope.adopting {
        ScopeTaskPreference.mainActorTask(check.holds) { value in held.withLock { $0 = value } }
      }
      settle(scope)
      guard held.withLock({ $0 }) == true else { return check.name }
    }
    return nil
  }

  /// Begins a wait for a job from outside the scope, as long as what may bring one calls for.
  private func startWaiting(_ scope: JobScope) -> OutsideWait {
    let outside = context.outside
    if scope.hasHeardFromOutside { outside.heard = true }
    let sleeps = scope.pendingSleeps
    // A task that ran without the scope's executor sleeps in real time, unseen (see
    // `ScopeTaskPreference`): that is a sign of outside work, as a job from outside is.
    let unseenSleeps = !scope.unpreferredTaskNames.isEmpty
    let wait: Duration
    if sleeps > 0 {
      wait = ScheduleLimits.longestSleep
    } else if let outsideWait = context.outsideWait {
      wait = outsideWait
    } else if outside.heard || unseenSleeps {
      wait = ScheduleLimits.defaultOutsideWait
    } else if !outside.probed {
      outside.probed = true
      wait = ScheduleLimits.probe
    } else {
      wait = ScheduleLimits.grace
    }
    let reported =
      sleeps > 0 || context.outsideWait != nil || outside.heard || unseenSleeps ? wait : nil
    let started = OutsideWait(
      deadline: .now + TimeoutScale.scaled(wait), reported: reported)
    waiting = started
    return started
  }

  /// A job came from outside while the schedule waited: it takes the next step.
  private func arrived(_ scope: JobScope) -> Check {
    waiting = nil
    if scope.hasHeardFromOutside { context.outside.heard = true }
    return .wait
  }
}

/// A schedule's wait for a job from outside its scope, left to its caller.
struct OutsideWork {
  let scope: JobScope
  /// When the schedule stops waiting, and counts as stuck if nothing came.
  let until: ContinuousClock.Instant

  /// Waits, holding no thread and not the main actor, until a job comes or `until` passes.
  func wait() async {
    await scope.waitForJob(until: until)
  }
}
