import LockSupport
import Synchronization
import TaskProviding

/// Runs `body` with every job it causes run one at a time, on the calling thread, in the
/// order `order` gives, and returns what `body` returns once it has ended.
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
/// - **Speed.** A job on the main actor costs a thread wake-up when the runtime schedules it
///   (20–30 µs on a small Linux machine); here it runs in the same loop as the one before it
///   (about a microsecond).
///
/// ```swift
/// @Test @MainActor func outOfOrder() throws {
///   try withSerialScheduler {
///   let facts = ControlledNumberFactClient(cancellation: .ignore)
///   let model = Model(client: facts.client)
///   let first = Task { await model.tap() }
///   …
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

/// ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)``, failing at `site`.
@MainActor
package func runSerially<R: Sendable>(
  order: JobOrder = .fifo, timeout: Duration, at site: CallSite,
  waitsForCancelledBody: Bool = false,
  _ body: @escaping @MainActor () async throws -> R
) throws -> R {
  guard let scope = JobScope.open() else {
    throw SerialSchedulerUnavailableError(location: site.location)
  }
  defer { if !scope.close() { site.report(JobScope.hookReplacedMessage) } }
  let outcome = Outcome<R>()
  let task = scope.adopting {
    Task { @MainActor in
      do { outcome.end(.success(try await body())) } catch { outcome.end(.failure(error)) }
    }
  }
  var jobsRun = 0
  var picker = JobPicker(order)
  // A job that never returns would keep the timeout from ever being seen: past the timeout
  // and a second more, the watchdog ends the run and says which job it was.
  let watchdog = JobWatchdog(
    bound: FailureBoundScale.scaled(timeout) + .seconds(1),
    scope: { "withSerialScheduler at \(site.description)" })
  defer { watchdog.stop() }
  if scope.drain(
    until: .now + FailureBoundScale.scaled(timeout), ended: outcome.hasEnded, order: &picker,
    jobsRun: &jobsRun, watchdog: watchdog),
    let result = outcome.result
  {
    return try result.get()
  }
  task.cancel()
  // A second to end once cancelled, so its jobs do not outlive the test if it can help it.
  var ended = scope.drain(
    until: .now + .seconds(1), ended: outcome.hasEnded, order: &picker, jobsRun: &jobsRun,
    watchdog: watchdog)
  if waitsForCancelledBody, !ended {
    // The body borrows a closure that must not outlive this call: keep driving it.
    while !ended {
      ended = scope.drain(
        until: .now + .seconds(10), ended: outcome.hasEnded, order: &picker, jobsRun: &jobsRun,
        watchdog: watchdog)
    }
  }
  throw SerialSchedulerTimeoutError(timeout: timeout, jobsRun: jobsRun, location: site.location)
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
