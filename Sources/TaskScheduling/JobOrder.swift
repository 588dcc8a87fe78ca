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

  /// The index in `jobs` of the job to run next, from those at `head` and after.
  mutating func pick(from jobs: [ReadyJob], after head: Int) -> Int {
    guard var generator else { return head }
    defer { self.generator = generator }
    // The candidates are the oldest main-actor job and every pool job; count them, draw
    // one, then find it, so no array is built per job.
    var count = 0
    var sawMain = false
    var index = head
    while index < jobs.count {
      if jobs[index].lane == .pool || !sawMain {
        if jobs[index].lane == .mainActor { sawMain = true }
        count += 1
      }
      index += 1
    }
    var chosen = generator.next(below: count)
    sawMain = false
    index = head
    while index < jobs.count {
      if jobs[index].lane == .pool || !sawMain {
        if jobs[index].lane == .mainActor { sawMain = true }
        if chosen == 0 { return index }
        chosen -= 1
      }
      index += 1
    }
    return head
  }
}
