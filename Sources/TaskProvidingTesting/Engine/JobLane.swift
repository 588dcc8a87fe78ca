/// Which of a scope's queues a job joined.
enum JobLane: Sendable, Equatable {
  /// A job for the main actor, which runs its jobs in order.
  case mainActor
  /// A job for the global pool: a task's first step, nonisolated code, an actor's turn.
  case pool
}
