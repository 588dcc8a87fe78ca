/// The executors a scope runs one of its jobs under (``JobScope/runNext(pick:)``).
enum JobExecutors: Sendable {
  /// The scope's own: the job's task prefers the scope's task executor, from its creation or
  /// since it took it.
  case scopes
  /// Those the runtime would give it: the job is not a task's, or its task prefers no task
  /// executor for a moment only (it is about to take the scope's), or is the runtime's own
  /// small task that ends a sleep.
  case asCreated
  /// For a task that prefers no task executor, and that the scope saw no creation of: on the
  /// pool, the scope's task executor stands in for the pool's, so that a sleep there asks the
  /// scope to schedule it (the runtime asks the running thread's task executor) and keeps
  /// virtual time. The runtime then sees a task executor the task does not prefer, and hops
  /// back to the pool at the next call or return that asks for one: a hop the task would not
  /// make with the pool's, which runs at once, as part of the same job.
  case standIn

  /// Runs `taken` under these executors, as the runtime would give them, with one difference:
  /// the job runs on a task executor, never as plain pool work, so the runtime cannot switch
  /// executors inside it. Every hop that changes executor then ends the job (the rules are in
  /// docs/suspension-points.md):
  /// - a task that prefers the scope's executor (every task the scope's code creates, where
  ///   task creation can be watched; everywhere, every task spawned through a provider in the
  ///   scope and the scope's own body) runs on it, on the main actor too: a hop that stays on
  ///   the same executor compares equal and runs on inline, as the runtime runs it;
  /// - a task with no preference for a moment only, or the runtime's own task that ends a
  ///   sleep, runs on the global pool's task executor, which the runtime takes for "no
  ///   preference", so a hop from the pool to the pool stays inline too; a hop onto an actor
  ///   is enqueued;
  /// - any other task with no preference (``JobExecutors/standIn``) runs its pool jobs on the
  ///   scope's executor, so its sleeps keep the scope's time; the hop back to the pool that
  ///   the runtime then makes runs at once, in the same job (see ``JobScope/runNext(pick:)``);
  /// - an actor's turn runs on the scope's executor; the runtime's drain of the actor sets
  ///   each task's own preference as it runs it.
  func run(_ taken: ReadyJob) {
    switch (taken.lane, self) {
    case (.mainActor, .scopes):
      taken.job.runSynchronously(
        isolatedTo: ScopeMainExecutor.shared.asUnownedSerialExecutor(),
        taskExecutor: ScopePoolExecutor.shared.asUnownedTaskExecutor())
    case (.mainActor, _):
      taken.job.runSynchronously(on: ScopeMainExecutor.shared.asUnownedSerialExecutor())
    case (.pool, .asCreated) where taken.task != nil:
      taken.job.runSynchronously(on: ScopePoolExecutor.globalPool)
    case (.pool, _):
      taken.job.runSynchronously(on: ScopePoolExecutor.shared.asUnownedTaskExecutor())
    }
  }
}
