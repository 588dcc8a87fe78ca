/// The order in which ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)-76ht2``
/// runs the jobs that are ready.
public enum JobOrder: Sendable, Hashable, CustomStringConvertible {
  /// Enqueue order: the same interleaving every time.
  case fifo
  /// Main-actor jobs in enqueue order, as the main actor runs them, and each job for the
  /// global pool (a task's first step, nonisolated code, an actor's turn) at a random place
  /// among them, as a pool running beside the main actor may place it: a different
  /// interleaving for each seed, and the same one for the same seed as long as the body's
  /// jobs come from the body itself (not from a timer or another thread).
  case random(seed: UInt64)

  /// The order as it is written in Swift.
  public var description: String {
    switch self {
    case .fifo: "fifo"
    case .random(let seed): "random(seed: \(seed))"
    }
  }
}
