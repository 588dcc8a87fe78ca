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
