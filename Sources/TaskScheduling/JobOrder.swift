/// The order in which ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)``
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

  public var description: String {
    switch self {
    case .fifo: "fifo"
    case .random(let seed): "random(seed: \(seed))"
    }
  }
}

/// Chooses the next job to run from those ready, as a ``JobOrder`` says.
struct JobPicker {
  private var generator: SplitMix64?

  init(_ order: JobOrder) {
    switch order {
    case .fifo: generator = nil
    case .random(let seed): generator = SplitMix64(seed: seed)
    }
  }

  /// The offset in `jobs` of the job to run next.
  mutating func pick(from jobs: ArraySlice<ReadyJob>) -> Int {
    guard var generator else { return 0 }
    defer { self.generator = generator }
    // The candidates are the oldest main-actor job and every pool job; count them, draw
    // one, then find it, so no array is built per job.
    var count = 0
    var sawMain = false
    for job in jobs where job.lane == .pool || !sawMain {
      if job.lane == .mainActor { sawMain = true }
      count += 1
    }
    var chosen = generator.next(below: count)
    sawMain = false
    for (offset, job) in jobs.enumerated() where job.lane == .pool || !sawMain {
      if job.lane == .mainActor { sawMain = true }
      if chosen == 0 { return offset }
      chosen -= 1
    }
    return 0
  }
}
