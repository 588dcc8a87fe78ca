/// What a tracing scope learns about each job it is given.
struct JobEvent: Sendable {
  let sequence: Int
  let lane: JobLane
  /// The task the job resumes, if it is one.
  let task: TaskIdentity?
  /// The task that was running when the job was enqueued, if any.
  let enqueuedBy: TaskIdentity?
  /// That task's name, if it has one.
  let enqueuerName: String?
  /// Whether it ends a sleep: the runtime's own small task that wakes the sleeper.
  let endsSleep: Bool
}
