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
/// (on its actor's queue, in spawn order), and takes the preference as its first step, which
/// the runtime does without a hop. Its child tasks inherit the preference.
enum ScopeTaskPreference {
  /// The open scope whose code runs here, if any: a task spawned now is that scope's.
  static func spawningScope() -> JobRouter.Queue? {
    JobRouter.shared.owningQueue()
  }

  /// Notes that `task`, just spawned by `queue`'s code, takes the scope's preference as its
  /// first step (``preferring(isolation:_:)``), so that its jobs run on the scope's executor
  /// from the first.
  static func note<Success, Failure>(_ task: Task<Success, Failure>, in queue: JobRouter.Queue) {
    JobRouter.shared.prefer(taskAt: unsafeBitCast(task, to: UInt.self), in: queue)
  }

  /// Runs `operation`, on `isolation`, with the scope's task executor as the running task's
  /// preference if `scoped`.
  static func preferring<T, Failure>(
    when scoped: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws(Failure) -> T
  ) async throws(Failure) -> T {
    guard scoped else { return try await operation() }
    return try await withTaskExecutorPreference(
      ScopePoolExecutor.shared, isolation: isolation, operation: operation)
  }

  /// Starts `body` as a main-actor task of the scope whose code runs here, with the scope's
  /// preference: a scheduler's body, an exploration's scenario.
  @discardableResult
  static func mainActorTask<Success: Sendable>(
    _ body: @escaping @MainActor () async -> Success
  ) -> Task<Success, Never> {
    let task = Task { @MainActor in await preferring { await body() } }
    if let queue = spawningScope() { note(task, in: queue) }
    return task
  }
}
