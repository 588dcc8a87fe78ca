/// A scope's virtual time: a sleep of one of its tasks is held until the scope moves its time
/// to the sleep's end, which it does only when nothing else can run, so a test that sleeps
/// takes no real time and its sleeps end in the order of their deadlines.
extension JobRouter {
  /// Holds `job`, the end of a sleep of a task that prefers a scope's executor, until `delay`
  /// has passed: on the scope's virtual time if a scope owns the task (see
  /// ``JobScope/wakeEarliestTimer()``), else in real time.
  func schedule(_ job: UnownedJob, after delay: Duration) {
    let owner = owningScope()
    if owner?.hold(job, after: delay) == true { return }
    owner?.sleepBegan()
    let nanoseconds = max(delay, .zero).dispatchNanoseconds
    runLater(afterNanoseconds: nanoseconds) {
      if case .foreign = self.route(job, .pool, fromSleep: true) { Self.forward(job, .pool) }
      owner?.sleepEnded()
    }
  }
}

extension JobScope {
  /// Holds `job`, the end of a sleep of one of the scope's tasks, until the scope's virtual
  /// time has moved `delay` on; `false` once the scope has closed.
  fileprivate func hold(_ job: UnownedJob, after delay: Duration) -> Bool {
    state.withLock { state -> Bool in
      guard !state.isClosed else { return false }
      if state.effects != nil { state.effects?.sleeps = true }
      state.timers.append(
        ScopeTimer(
          deadline: state.now + max(delay, .zero), sequence: state.nextTimer, job: job,
          realDeadline: state.sleepsKeepRealTime
            ? ContinuousClock.now.advanced(by: max(delay, .zero)) : nil))
      state.nextTimer += 1
      return true
    }
  }

  /// A sleep of one of the scope's tasks began that keeps real time, not the scope's.
  fileprivate func sleepBegan() {
    state.withLock { $0.pendingSleeps += 1 }
  }

  /// A sleep counted in ``ScopeState/pendingSleeps`` has ended, in real time, and its job has
  /// been routed: the driver may have a job to run.
  fileprivate func sleepEnded() {
    let waking = state.withLock { state in
      state.pendingSleeps -= 1
      return state.wakeDriver()
    }
    wake(waking)
  }

  /// Moves the scope's virtual time to its earliest sleep's end (ties in the order the sleeps
  /// began) and queues the job that ends it. Returns `false` when no sleep is under way.
  func wakeEarliestTimer() -> Bool {
    let timer = state.withLock { state -> ScopeTimer? in
      guard let index = Self.earliest(state.timers) else { return nil }
      let timer = state.timers.remove(at: index)
      state.now = max(state.now, timer.deadline)
      return timer
    }
    guard let timer else { return false }
    adopting {
      if case .foreign = JobRouter.shared.route(timer.job, .pool, fromSleep: true) {
        JobRouter.forward(timer.job, .pool)
      }
    }
    return true
  }

  /// Where the scope's virtual time stands, when its earliest sleep ends, if one is under way,
  /// and when that sleep may end in real time, if it keeps real time too (``SleepFloor``).
  var virtualTime:
    (now: Duration, nextDeadline: Duration?, nextRealDeadline: ContinuousClock.Instant?)
  {
    state.withLock { state in
      guard let index = Self.earliest(state.timers) else { return (state.now, nil, nil) }
      return (state.now, state.timers[index].deadline, state.timers[index].realDeadline)
    }
  }

  private static func earliest(_ timers: [ScopeTimer]) -> Int? {
    timers.indices.min {
      (timers[$0].deadline, timers[$0].sequence) < (timers[$1].deadline, timers[$1].sequence)
    }
  }
}

/// A sleep of a scope's task on the scope's virtual time: the job that ends it, and when.
struct ScopeTimer: Sendable {
  let deadline: Duration
  /// Its place among the scope's sleeps, in the order they began: ties end in that order.
  let sequence: Int
  let job: UnownedJob
  /// When it may end in real time, where sleeps keep real time too (``SleepFloor``).
  let realDeadline: ContinuousClock.Instant?
}

/// Whether the sleeps of the scopes an exploration opens end no sooner in real time than
/// they would on the runtime, as well as in the order of virtual time.
///
/// A test written with no thought of the explorer may measure a sleep with a real clock (a
/// timer's duration, a poll for work on another thread that takes real time): on virtual
/// time alone such a test fails where the runtime never fails it. The `exploring` trait sets
/// it; a schedule then costs about the real time a plain run of the test sleeps, as the
/// plain run does, and the explorer still chooses when each sleep ends among the jobs.
enum SleepFloor {
  @TaskLocal static var isReal = false
}
