/// Runs one schedule of a scenario: starts it in a scope of its own, then, step by step,
/// runs the scope's ready jobs (letting the strategy choose among them) and takes a choice
/// (letting the strategy choose) whenever no job is ready, checking what must hold.
@MainActor
struct ScheduleRunner {
  let makeSetup: @MainActor () -> ScheduleSetup
  /// How long a schedule with nothing to choose, but something unfinished, waits in real time
  /// for a job from outside (a sleep ending) before it counts as stuck.
  let outsideWait: Duration

  /// Choices a schedule may take before it counts as endless.
  static let maximumSteps = 10_000
  /// Jobs a schedule may run before it counts as endless (a task that loops, yielding).
  static let maximumJobs = 1_000_000

  func run(_ decider: inout some ScheduleDecider, narrate: Bool = false) -> ScheduleRun {
    guard let scope = JobScope.open() else {
      var run = ScheduleRun()
      run.failure = ScheduleFailure(
        kind: .unavailable,
        reason: "exploring needs the concurrency runtime's enqueue hooks, which it does not export"
      )
      return run
    }
    let setup = makeSetup()
    let narrator = narrate ? ScheduleNarrator(taskLabel: setup.taskLabel) : nil
    if let narrator { scope.trace(narrator.observe) }
    scope.adopting { setup.start() }
    var run = steps(in: scope, of: setup, &decider, narrator: narrator)
    // Leave nothing behind: end what is open, let what that releases run; what it does may
    // open more, so a few rounds.
    for _ in 0..<4 {
      scope.adopting { setup.cleanUp() }
      Self.settle(scope)
    }
    if !scope.close() {
      run.failure = ScheduleFailure(kind: .hookReplaced, reason: JobScope.hookReplacedMessage)
    }
    if let narrator {
      run.steps = narrator.steps()
      narrator.release()
    }
    return run
  }

  /// The schedule's steps, until it ends or fails.
  ///
  /// At every step the options are the ready jobs, oldest first, then the scenario's own
  /// choices: its next action, each held task's start, each open call's outcomes. The clock
  /// is an option only once no job is ready. Option 0, the default, is the oldest ready job,
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
        // Time passes only when nothing else can happen.
        choices.removeAll { $0.kind == .time }
      } else {
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
          options: { [runnable] in
            runnable.map { keys.footprint(of: $0) } + choices.map(\.footprint)
          })
        guard let chosen = decider.decide(decision) else {
          run.failure = Self.replayEnded(at: run.decisions.count)
          return run
        }
        pick = chosen
        run.decisions.append(.init(kind: decision.kind, count: count, pick: pick))
      }
      if pick < runnable.count {
        narrator?.job(runnable[pick], oldest: runnable[0], decided: count > 1)
        scope.run(runnable[pick])
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
      narrator?.choice(choice.label)
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
    // Nothing to choose, yet something is unfinished: a sleep or a timer may still bring a
    // job. Real time passes here; a schedule that never sleeps never waits.
    if !finished, scope.waitForJob(until: .now + outsideWait) { return .wait }
    guard setup.hasReturned() else {
      return .end(
        ScheduleFailure(
          kind: .stuck,
          reason: "nothing can run and the scenario has not returned" + Self.after(steps)
            + "; it may await something no task or call will give"))
    }
    guard pending.isEmpty else {
      return .end(
        ScheduleFailure(
          kind: .pendingTasks,
          reason: "nothing can run" + Self.after(steps) + ", yet tasks are still pending: "
            + pending.joined(separator: "; ")
            + " (they may await a call of a function made without `answers:`)"))
    }
    if let broken = setup.brokenFinalCheck() {
      return .end(
        ScheduleFailure(
          kind: .finalCheck(broken), reason: "\"\(broken)\" did not hold at the end"))
    }
    return .end(nil)
  }

  /// Runs the scope's jobs in enqueue order until none is ready.
  private static func settle(_ scope: JobScope) {
    var order = JobPicker(.fifo)
    var jobsRun = 0
    _ = scope.drain(
      until: .now, ended: { scope.isIdle }, order: &order, jobsRun: &jobsRun,
      stopAfter: maximumJobs)
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
        key: "task \(number(task))", place: job.lane == .mainActor ? .mainActor : .pool,
        task: task.address)
    }
    // Not a task: an actor's turn.
    let actor = number(actor: job.actor ?? unsafeBitCast(job.job, to: UInt.self))
    return OptionFootprint(key: "actor \(actor)", place: .actor(actor), task: nil)
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
