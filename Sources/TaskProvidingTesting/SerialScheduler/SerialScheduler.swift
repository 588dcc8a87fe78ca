import LockSupport
import Synchronization
import TaskProviding

// Repeated on purpose (docs/architecture.md): the synchronous and the `async` form each take the
// same parameters and forward them to one package function.

/// Runs `body` with every job it causes run one at a time, on the calling thread, in the
/// order `order` gives, holding that thread until it is done (the synchronous form), and
/// returns what `body` returns once it has ended.
///
/// The scheduler owns the body's work and nothing else: the body's task, every task it starts
/// (through a provider, `Task { }`, `Task.detached { }`, `async let`, a task group), every
/// actor turn and main-actor hop that work causes, and every continuation of those tasks,
/// resumed from whatever thread. Each of those becomes a job in the scheduler's own queue,
/// drained in a loop on the calling thread. Two things follow:
/// - **Order.** Under ``JobOrder/fifo`` jobs run in enqueue order, so the same test runs the
///   same way every time. Under ``JobOrder/random(seed:)`` each seed gives another legal
///   interleaving, and the same seed the same one: run a test under many seeds to show it
///   holds in every order, and replay a failing seed.
/// - **Speed.** A job on the main actor costs a thread wake-up when the runtime schedules it;
///   here it runs in the same loop as the one before it.
///
/// ```swift
/// @Test @MainActor func theLatestSearchWins() throws {
///   try withSerialScheduler {
///     let search = ControlledFunction<String, [String]>("search")
///     let model = SearchModel(search: search.function)
///     Task { await model.typed("sw") }
///     Task { await model.typed("swift") }
///     …
///   }
/// }
/// ```
///
/// Every other job in the process (other tests' tasks, the test runner's own) goes to the
/// runtime's executors at once, untouched, so tests that use the scheduler need no
/// `.serialized` suite and run beside any other test, another scheduler's included. Jobs for
/// the global pool run here with the runtime forbidden to switch executors inside them, so
/// each hop onto an actor, onto the main actor or back to the pool is a job boundary, as it
/// may be under a pool of threads.
///
/// It holds the main actor while it runs: other tests' main-actor work waits for its turn, as
/// main-actor work always does, and code that waits for `DispatchQueue.main` inside `body`
/// waits until the timeout. Work on a dispatch queue or a thread of its own is not a job and
/// runs where it runs; a continuation it resumes comes back to the scheduler.
///
/// **Time.** A sleep of a task the scheduler owns (`Task.sleep` in all its forms, a
/// `ContinuousClock` or `SuspendingClock` sleep) is a timer of the scheduler's, on its own
/// virtual time: once no job is ready, that time jumps to the earliest timer and its sleeper
/// wakes, timers with the same deadline in the order they began. A debounce, a back-off or a
/// timeout then runs at once, with no clock injected. A cancelled sleep ends at once with
/// `CancellationError`. `ContinuousClock.now` still reads the wall clock. Time moves whenever
/// no job of the scheduler's is ready, even while its work waits for a thread of its own or a
/// network answer: a timeout that races real I/O fires first. A sleep still under way when
/// `body` ends goes on in real time for what is left of it. Sleeps of tasks the scheduler
/// does not own keep real time.
///
/// The source-location parameters default to the caller's: see `TaskSourceLocation`.
///
/// - `order`: Which ready job runs next.
/// - `timeout`: Bounds a failure only: if `body` has not ended by then, the scheduler
///   cancels the body's task, gives it one more second to end, and throws. A single job that
///   runs longer than that and a second more (it blocks on a lock, or waits for the main
///   queue the scheduler holds) cannot be unwound: the run ends with a report that names this
///   call's line and the job's task, rather than hang.
/// - `body`: The test, run as a task on the main actor.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws; ``SerialSchedulerTimeoutError`` naming this call's line if
///   it did not end in time; ``SerialSchedulerUnavailableError`` if the runtime does not
///   export the hooks.
@MainActor
public func withSerialScheduler<R: Sendable>(
  order: JobOrder = .fifo,
  timeout: Duration = .seconds(30),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: @escaping @MainActor () async throws -> R
) throws -> R {
  try runSerially(
    order: order, timeout: timeout,
    at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), body)
}

/// Runs `body` with every job it causes run one at a time, on the calling thread, in the
/// order `order` gives, as the synchronous
/// ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-51sme`` does, giving the main
/// actor back to other work every few milliseconds and while the body waits for a job from
/// outside (a sleep of a task it does not own, a thread of its own).
///
/// This is the form to use in an `async` test, where Swift picks it for
/// `try await withSerialScheduler { … }`: a test that runs the scheduler thousands of times,
/// or a body that waits for real I/O, then keeps no `@MainActor` test beside it waiting. The
/// jobs run in the same order as under the synchronous form: other main-actor work runs only
/// between two of the body's jobs, never inside one, and a job of the body's waits for no
/// one but the main actor's turn.
///
/// ```swift
/// @Test @MainActor func bothIncrementsCount() async throws {
///   for seed in 0..<1_000 {
///     try await withSerialScheduler(order: .random(seed: UInt64(seed))) {
///       let counter = Counter()
///       async let first: Void = counter.increment()
///       async let second: Void = counter.increment()
///       _ = await (first, second)
///       #expect(await counter.value == 2)
///     }
///   }
/// }
/// ```
@MainActor
public func withSerialScheduler<R: Sendable>(
  order: JobOrder = .fifo,
  timeout: Duration = .seconds(30),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: @escaping @MainActor () async throws -> R
) async throws -> R {
  try await runSerially(
    order: order, timeout: timeout,
    at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), body)
}

/// ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-51sme``, failing at `site`.
@MainActor
func runSerially<R: Sendable>(
  order: JobOrder = .fifo, timeout: Duration, at site: CallSite,
  waitsForCancelledBody: Bool = false,
  _ body: @escaping @MainActor () async throws -> R
) throws -> R {
  let run = try SerialRun(
    order: order, timeout: timeout, at: site, waitsForCancelledBody: waitsForCancelledBody, body)
  defer { run.close() }
  run.drive()
  return try run.result()
}

/// The `async` ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2``, failing
/// at `site`.
@MainActor
func runSerially<R: Sendable>(
  order: JobOrder = .fifo, timeout: Duration, at site: CallSite,
  waitsForCancelledBody: Bool = false,
  _ body: @escaping @MainActor () async throws -> R
) async throws -> R {
  let run = try SerialRun(
    order: order, timeout: timeout, at: site, waitsForCancelledBody: waitsForCancelledBody, body)
  defer { run.close() }
  await run.drive()
  return try run.result()
}

/// One run of a body under the serial scheduler: its scope, its task, and how far it got.
///
/// The body runs until it ends or its timeout passes; past the timeout its task is
/// cancelled and given a second more to end, so its jobs do not outlive the test if it can
/// help it, and the run throws ``SerialSchedulerTimeoutError``.
@MainActor
final class SerialRun<R: Sendable> {
  private let scope: JobScope
  private let outcome = Outcome<R>()
  private var picker: JobPicker
  private var jobsRun = 0
  /// A job that never returns would keep the timeout from ever being seen: past the timeout
  /// and a second more, the watchdog ends the run and says which job it was.
  private let watchdog: JobWatchdog
  private let task: Task<Void, Never>
  private let timeout: Duration
  private let site: CallSite
  /// The body borrows a closure that must not outlive this call: keep driving it once
  /// cancelled, however long it takes.
  private let waitsForCancelledBody: Bool
  private var phase = Phase.running

  private enum Phase {
    case running
    case cancelled
    case over(timedOut: Bool)
  }

  init(
    order: JobOrder, timeout: Duration, at site: CallSite, waitsForCancelledBody: Bool,
    _ body: @escaping @MainActor () async throws -> R
  ) throws {
    guard let scope = JobScope.open() else {
      throw SerialSchedulerUnavailableError(location: site.location)
    }
    self.scope = scope
    self.picker = JobPicker(order)
    self.timeout = timeout
    self.site = site
    self.waitsForCancelledBody = waitsForCancelledBody
    let outcome = outcome
    task = scope.adopting {
      ScopeTaskPreference.mainActorTask {
        do { return .success(try await body()) } catch { return .failure(error) }
      } then: {
        outcome.end($0)
      }
    }
    watchdog = JobWatchdog(
      timeout: TimeoutScale.scaled(timeout) + .seconds(1),
      scope: { "withSerialScheduler at \(site.description)" })
  }

  /// Runs the body's jobs on this thread until the run is over, holding the main actor.
  func drive() {
    while let deadline {
      drained(
        scope.drain(
          until: deadline, ended: outcome.hasEnded, order: &picker, jobsRun: &jobsRun,
          watchdog: watchdog))
    }
  }

  /// Runs the body's jobs on this thread until the run is over, giving the main actor back
  /// between turns.
  func drive() async {
    while let deadline {
      // An isolated property cannot be lent across a suspension: lend copies.
      var picker = picker
      var jobsRun = jobsRun
      let ended = await scope.drain(
        until: deadline, ended: outcome.hasEnded, order: &picker, jobsRun: &jobsRun,
        watchdog: watchdog)
      self.picker = picker
      self.jobsRun = jobsRun
      drained(ended)
    }
  }

  /// Until when to drive the body's jobs next, or `nil` once the run is over.
  private var deadline: ContinuousClock.Instant? {
    switch phase {
    case .running: .now + TimeoutScale.scaled(timeout)
    case .cancelled: .now + (waitsForCancelledBody ? .seconds(10) : .seconds(1))
    case .over: nil
    }
  }

  /// The drive up to ``deadline`` has returned, the body having `ended` or not.
  private func drained(_ ended: Bool) {
    switch phase {
    case .running where ended:
      phase = .over(timedOut: false)
    case .running:
      task.cancel()
      phase = .cancelled
    case .cancelled where ended || !waitsForCancelledBody:
      phase = .over(timedOut: true)
    case .cancelled, .over:
      break
    }
  }

  /// What the body returned or threw, or the timeout's error.
  func result() throws -> R {
    if case .over(timedOut: false) = phase, let result = outcome.result {
      return try result.get()
    }
    throw SerialSchedulerTimeoutError(timeout: timeout, jobsRun: jobsRun, location: site.location)
  }

  /// Hands back what the body never ran, and reports a hook that something else replaced.
  func close() {
    watchdog.stop()
    if !scope.close() { site.report(JobScope.hookReplacedMessage) }
  }
}

/// How a scheduled body ended, set by its last job.
final class Outcome<R: Sendable>: Sendable {
  private let state = Locked<Result<R, any Error>?>(nil)
  /// Read between every two jobs: an atomic flag, not the generic result behind a lock.
  private let ended = Atomic(false)

  func end(_ result: Result<R, any Error>) {
    state.withLock { $0 = result }
    ended.store(true, ordering: .releasing)
  }

  var result: Result<R, any Error>? { state.withLock { $0 } }
  @Sendable func hasEnded() -> Bool { ended.load(ordering: .acquiring) }
}
