/// A job a scope owns, waiting to run.
struct ReadyJob: Sendable {
  /// Its place in the scope's enqueue order, from 0.
  let sequence: Int
  /// The queue it joined.
  let lane: JobLane
  /// The task it resumes, or `nil` for another kind of job (an actor's turn).
  let task: TaskIdentity?
  /// For an actor's turn, the actor's address.
  let actor: UInt?
  /// Whether it ends a sleep: the runtime's own small task that wakes the sleeper.
  let endsSleep: Bool
  let job: UnownedJob
}
