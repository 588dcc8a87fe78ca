/// The executors a scope runs one of its jobs under (``JobRouter/runNext(_:sleepIfEmpty:pick:)``).
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
}
