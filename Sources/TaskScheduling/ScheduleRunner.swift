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
  private func steps(
    in scope: JobScope, of setup: ScheduleSetup, _ decider: inout some ScheduleDecider,
    narrator: ScheduleNarrator?
  ) -> ScheduleRun {
    var run = ScheduleRun()
    var keys = JobKeys()
    var jobs = 0
    var steps = 0
    while true {
      // Every ready job, the strategy choosing whenever more than one is ready.
      while true {
        let runnable = scope.runnable
        guard let oldest = runnable.first else { break }
        var pick = 0
        if runnable.count > 1 {
          let decision = Decision(
            kind: .job, index: run.decisions.count, count: runnable.count,
            keys: { [runnable] in runnable.map { keys.key(for: $0) } })
          guard let chosen = decider.decide(decision) else {
            run.failure = Self.replayEnded(at: run.decisions.count)
            return run
          }
          pick = chosen
          run.decisions.append(.init(kind: .job, count: runnable.count, pick: pick))
        }
        narrator?.job(runnable[pick], oldest: oldest, decided: runnable.count > 1)
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
      }
      if let error = setup.thrown() {
        run.failure = ScheduleFailure(kind: .threw(error), reason: "the scenario threw \(error)")
        return run
      }
      if let broken = setup.brokenInvariant() {
        run.failure = ScheduleFailure(
          kind: .invariant(broken), reason: "\"\(broken)\" did not hold" + Self.after(steps))
        return run
      }
      let choices = setup.choices()
      if choices.isEmpty {
        let pending = setup.pendingWork()
        let finished = setup.hasReturned() && pending.isEmpty
        // Nothing to choose, yet something is unfinished: a sleep or a timer may still
        // bring a job. Real time passes here; a schedule that never sleeps never waits.
        if !finished, scope.waitForJob(until: .now + outsideWait) { continue }
        guard setup.hasReturned() else {
          run.failure = ScheduleFailure(
            kind: .stuck,
            reason: "nothing can run and the scenario has not returned" + Self.after(steps)
              + "; it may await something no task or call will give")
          return run
        }
        guard pending.isEmpty else {
          run.failure = ScheduleFailure(
            kind: .pendingTasks,
            reason: "nothing can run" + Self.after(steps) + ", yet tasks are still pending: "
              + pending.joined(separator: "; ")
              + " (they may await a call of a function made without `answers:`)")
          return run
        }
        if let broken = setup.brokenFinalCheck() {
          run.failure = ScheduleFailure(
            kind: .finalCheck(broken), reason: "\"\(broken)\" did not hold at the end")
        }
        return run
      }
      guard steps < Self.maximumSteps else {
        run.failure = ScheduleFailure(
          kind: .tooManySteps,
          reason: "the schedule did not end within \(Self.maximumSteps) steps")
        return run
      }
      var pick = 0
      if choices.count > 1 {
        let decision = Decision(
          kind: .choice, index: run.decisions.count, count: choices.count,
          keys: { choices.map { keys.key(for: $0) } })
        guard let chosen = decider.decide(decision) else {
          run.failure = Self.replayEnded(at: run.decisions.count)
          return run
        }
        pick = chosen
        run.decisions.append(.init(kind: .choice, count: choices.count, pick: pick))
      }
      steps += 1
      narrator?.choice(choices[pick].label)
      scope.adopting { choices[pick].apply() }
    }
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

  mutating func key(for job: ReadyJob) -> String {
    if let task = job.task { return "task \(number(task))" }
    // Not a task: an actor's turn, whose job lives inside the actor.
    let address = unsafeBitCast(job.job, to: UInt.self)
    if let number = actors[address] { return "actor \(number)" }
    actors[address] = actors.count
    return "actor \(actors.count - 1)"
  }

  mutating func key(for choice: ScheduleChoice) -> String {
    choice.key
  }

  private mutating func number(_ task: TaskIdentity) -> Int {
    if let number = tasks[task] { return number }
    tasks[task] = tasks.count
    return tasks.count - 1
  }
}
