/// Driving a scope: running its ready jobs in the order a picker gives, moving its virtual
/// time when nothing is ready, and waiting for a job from another thread, holding a thread
/// or not.
extension JobScope {
  /// Why ``runReady(ended:order:jobsRun:stopAfter:watchdog:turnEnds:)`` stopped.
  enum Pause {
    /// `ended` holds, or the limit of jobs was reached.
    case ended
    /// No job is ready and no sleep of the scope's tasks is under way: only a thread
    /// outside the scope can bring one.
    case idle
    /// The turn ended with jobs still to run.
    case turnOver
  }

  /// Runs jobs, each chosen by `order`, until `ended` holds, `limit` jobs have run here, no
  /// job is ready (virtual time first moving to the earliest sleep's end), or `turnEnds`
  /// passes. `watchdog`, if given, is told of each job as it begins and ends.
  func runReady(
    ended: () -> Bool, order: inout JobPicker, jobsRun: inout Int, stopAfter limit: Int = .max,
    watchdog: JobWatchdog? = nil, turnEnds: ContinuousClock.Instant? = nil
  ) -> Pause {
    var ranHere = 0
    while true {
      // Only a job this loop runs can end the body, so checking between jobs is enough.
      if ended() { return .ended }
      if let turnEnds, ContinuousClock.now >= turnEnds { return .turnOver }
      if runNext(pick: { jobs, head in
        let index = order.pick(from: jobs, after: head)
        if let watchdog, index < jobs.count { watchdog.begin(jobs[index]) }
        return index
      }) {
        watchdog?.end()
        jobsRun += 1
        ranHere += 1
        if ranHere >= limit { return .ended }
        continue
      }
      // No job is ready: the scope's time moves to its earliest sleep's end.
      if wakeEarliestTimer() { continue }
      return .idle
    }
  }

  /// Runs jobs, each chosen by `order`, until `ended` holds or `deadline` passes; returns
  /// whether `ended` holds. While it waits for a job from another thread (a timer, a
  /// callback), it sleeps. It stops early, returning `true`, after `limit` jobs. `watchdog`,
  /// if given, is told of each job as it begins and ends.
  func drain(
    until deadline: ContinuousClock.Instant, ended: () -> Bool, order: inout JobPicker,
    jobsRun: inout Int, stopAfter limit: Int = .max, watchdog: JobWatchdog? = nil
  ) -> Bool {
    while true {
      switch runReady(
        ended: ended, order: &order, jobsRun: &jobsRun, stopAfter: limit, watchdog: watchdog)
      {
      case .ended: return true
      case .idle, .turnOver:
        guard sleepIfIdle() else { continue }
        if !sleep(until: deadline), ContinuousClock.now >= deadline {
          return ended()
        }
      }
    }
  }

  /// ``drain(until:ended:order:jobsRun:stopAfter:watchdog:)``, giving the main actor back
  /// after each turn (``MainActorTurn``) and while it waits for a job from another thread.
  @MainActor
  func drain(
    until deadline: ContinuousClock.Instant, ended: () -> Bool, order: inout JobPicker,
    jobsRun: inout Int, watchdog: JobWatchdog? = nil
  ) async -> Bool {
    while true {
      switch runReady(
        ended: ended, order: &order, jobsRun: &jobsRun, watchdog: watchdog,
        turnEnds: .now + MainActorTurn.length)
      {
      case .ended: return true
      case .turnOver:
        pauseDriving()
        await MainActorTurn.giveBackIfDue()
        resumeDriving()
      case .idle:
        pauseDriving()
        await waitForJob(until: deadline)
        resumeDriving()
        if isIdle, ContinuousClock.now >= deadline {
          return ended()
        }
      }
    }
  }

  /// Sleeps of the scope's tasks not yet ended, each of which will bring a job.
  var pendingSleeps: Int { state.withLock { $0.pendingSleeps } }

  /// The names, where seen, of the scope's tasks whose jobs ran without its task executor as
  /// their preference, first seen first: tasks created where task creation cannot be watched,
  /// not through a provider (see ``ScopeTaskPreference``).
  var unpreferredTaskNames: [String?] {
    state.withLock { state in state.unpreferred.map { state.unpreferredNames[$0] } }
  }

  /// Where task creation cannot be watched: whether an actor's turn ran, on which a task the
  /// scope cannot see may have been created, and the names of the first few such actors.
  var unwatchedActorTurns: (ran: Bool, actors: [String]) {
    state.withLock { ($0.ranUnwatchedActorTurn, $0.unwatchedActors) }
  }

  /// Whether a job has come from a thread outside the scope (a callback, a dispatch queue),
  /// other than a sleep's end.
  var hasHeardFromOutside: Bool { state.withLock { $0.outsideArrivals > 0 } }

  /// The calling thread stops driving the scope until ``resumeDriving()``: a driver about to
  /// suspend may resume on another thread (the main actor's jobs run on any thread of the
  /// main queue), and this one may meanwhile run anyone's work, which must not count as the
  /// scope's.
  func pauseDriving() { DriverContext.leave() }

  /// The calling thread drives the scope again, after ``pauseDriving()``.
  func resumeDriving() { _ = DriverContext.enter() }

  /// Waits, holding no thread, until a job arrives from another thread or `deadline`
  /// passes.
  func waitForJob(until deadline: ContinuousClock.Instant) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let number = state.withLock { state -> Int? in
        guard state.count == 0 else { return nil }
        state.isSleeping = true
        state.waiter = continuation
        state.waits += 1
        return state.waits
      }
      guard let number else { return continuation.resume() }
      let left = max(ContinuousClock.now.duration(to: deadline), .zero).dispatchNanoseconds
      runLater(afterNanoseconds: left) { [state] in
        // Only the wait it was set for: a later one has a deadline of its own.
        let timedOut = state.withLock { state -> CheckedContinuation<Void, Never>? in
          guard state.waits == number, let waiter = state.waiter else { return nil }
          state.waiter = nil
          state.isSleeping = false
          return waiter
        }
        timedOut?.resume()
      }
    }
  }

  /// Waits until a job arrives from another thread or `deadline` passes; returns whether
  /// one is waiting.
  func waitForJob(until deadline: ContinuousClock.Instant) -> Bool {
    while sleepIfIdle() {
      if !sleep(until: deadline), ContinuousClock.now >= deadline {
        return !isIdle
      }
    }
    return true
  }

  /// Marks the scope asleep if no job waits, for `sleep(until:)` to wait on; returns whether
  /// it did.
  private func sleepIfIdle() -> Bool {
    state.withLock { state in
      guard state.count == 0 else { return false }
      state.isSleeping = true
      return true
    }
  }

  /// Sleeps until a job arrives from another thread or `deadline` passes; the scope must
  /// have been marked asleep. Returns whether a job may have come.
  private func sleep(until deadline: ContinuousClock.Instant) -> Bool {
    let remaining = ContinuousClock.now.duration(to: deadline)
    guard remaining > .zero else {
      state.withLock { $0.isSleeping = false }
      return false
    }
    let woken = semaphore.wait(nanoseconds: remaining.dispatchNanoseconds)
    if !woken { state.withLock { $0.isSleeping = false } }
    return woken
  }
}
