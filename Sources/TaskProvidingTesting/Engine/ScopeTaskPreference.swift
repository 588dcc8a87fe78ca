/// Gives the tasks a scope starts itself, and those spawned through a provider in its code, the
/// scope's task executor as their preference, through public API that every platform's runtime
/// has: `withTaskExecutorPreference`.
///
/// With that preference the runtime enqueues such a task at every hop that changes executor,
/// where a task with none may switch inline from an actor to an idle actor or to the pool, so
/// each hop is a job the scope chooses among; and a sleep of the task is scheduled by the
/// scope's executor, on the scope's virtual time. Where task creation can be watched
/// (``TaskCreation``) every task the scope's code creates gets the preference as it is created;
/// this gives it, wherever it cannot, to the tasks the toolkit creates or sees spawned.
///
/// The task is created as it would be without the scope, so it starts where and when it would
/// (on its actor's queue, in spawn order), and takes the preference as its first step. The hop
/// the runtime makes for that, and for giving it back at the end, runs at once, as part of the
/// job that made it (``JobRouter/changingPreference(taking:)``), so no other job comes between.
/// Its child tasks inherit the preference.
enum ScopeTaskPreference {
  /// The open scope whose code runs here, if any: a task spawned now is that scope's.
  static func spawningScope() -> JobScope? {
    JobRouter.shared.owningScope()
  }

  /// Notes that `task`, just spawned by `scope`'s code, takes the scope's preference as its
  /// first step (``preferring(isolation:_:)``), so that its jobs run on the scope's executor
  /// from the first.
  static func note<Success, Failure>(_ task: Task<Success, Failure>, in scope: JobScope) {
    guard let pointer = UnsafeRawPointer(bitPattern: unsafeBitCast(task, to: UInt.self)),
      let identity = RuntimeHooks.taskIdentity(pointer)
    else { return }
    scope.noteTakingPreference(identity)
  }

  /// Runs `operation`, on `isolation`, with the scope's task executor as the running task's
  /// preference.
  static func preferring<T, Failure>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws(Failure) -> T
  ) async throws(Failure) -> T {
    // Taking the preference, and giving it back, may each take a hop; both run at once (see
    // `JobRouter.changingPreference(taking:)`).
    JobRouter.shared.changingPreference(taking: true)
    let result = await withTaskExecutorPreference(ScopePoolExecutor.shared, isolation: isolation) {
      () async -> Result<T, Failure> in
      _ = isolation  // keeps this closure on the caller's actor
      JobRouter.shared.changedPreference(taking: true)
      defer { JobRouter.shared.changingPreference(taking: false) }
      do throws(Failure) {
        return .success(try await operation())
      } catch {
        return .failure(error)
      }
    }
    JobRouter.shared.changedPreference(taking: false)
    return try result.get()
  }

  /// Starts `body` as a main-actor task of the scope whose code runs here, with the scope's
  /// preference (a scheduler's body, an exploration's scenario), and calls `end` with what it
  /// returned once the preference is given back: where the runtime has to hop to give it back,
  /// that hop is then a job of the scope's, not one left for after the scope has ended.
  @discardableResult
  static func mainActorTask<Result>(
    _ body: @escaping @MainActor () async -> Result,
    then end: @escaping @MainActor (Result) -> Void
  ) -> Task<Void, Never> {
    let task = Task { @MainActor in end(await preferring { await body() }) }
    if let scope = spawningScope() { note(task, in: scope) }
    return task
  }
}
