import Synchronization

/// Runs a schedule's own main-actor code (its setup, actions, answers and checks) as a job
/// on the scope's main-actor executor, as the scope's main-actor jobs run.
///
/// The runtime decides some things by the executor the running job started on: whether
/// `Task.immediate { @MainActor in … }` starts inline or is enqueued, for one. A driver's
/// own job is the test's, and it started on whichever executor was the main actor's when
/// the runtime took it from the main queue: the real one, or a scope's if any test beside
/// it had a scope open at that moment. The same action would then start its task inline in
/// one schedule and enqueue it in the next, and the space would change with the tests
/// running beside it. Run here, it is the scope's executor every time, as it is for the
/// scope's own jobs.
///
/// The job is the first job of a main-actor task made for the purpose: while a scope is
/// open, the runtime hands it to ``ScopeMainExecutor`` as the task is created, which gives
/// it back to the calling thread (``DriverContext/catchesMainActorJob``), to run at once.
/// The task ends when `body` returns.
@MainActor
enum MainActorStep {
  /// Runs `body`; a scope must be open, driven by the calling thread.
  static func run<R>(_ body: () -> R) -> R {
    withoutActuallyEscaping(body) { body in
      let step = Step(body)
      let context = DriverContext.enter()
      context.catchesMainActorJob = true
      Task { step.runOnce() }
      context.catchesMainActorJob = false
      let job = context.caughtMainActorJob
      context.caughtMainActorJob = nil
      DriverContext.leave()
      guard let job else {
        // The runtime put the task's first job elsewhere: run `body` here, on whatever
        // executor the caller is on; the task, when it runs, finds it taken.
        step.runOnce()
        return step.result!
      }
      job.runSynchronously(on: ScopeMainExecutor.shared.asUnownedSerialExecutor())
      return step.result!
    }
  }

  /// `body` and what it returned, passed to the task that runs it; only the calling thread
  /// touches them, inside ``run(_:)``.
  private final class Step<R>: @unchecked Sendable {
    let body: () -> R
    var result: R?
    private let taken = Atomic(false)

    init(_ body: @escaping () -> R) { self.body = body }

    func runOnce() {
      guard !taken.exchange(true, ordering: .acquiringAndReleasing) else { return }
      result = body()
    }
  }
}
