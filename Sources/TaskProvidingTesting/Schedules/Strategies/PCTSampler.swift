/// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): each task, actor and
/// choice gets a random priority when first seen; the highest-priority option goes; at
/// `depth - 1` decisions drawn in advance the option taken drops below every other.
///
/// A bug that needs `depth` particular orderings among `n` things over `k` decisions is found
/// with probability at least 1 / (n · k^(depth-1)) per schedule, however the rest is ordered.
struct PCTDecider: ScheduleDecider {
  private var generator: SplitMix64
  private var priorities: [OptionKey: Double] = [:]
  private let changes: Set<Int>
  private var lowest = 0.0

  /// The decider of schedule `number` (from 1) of a search seeded with `seed`, expecting
  /// about `decisions` decisions per schedule.
  init(seed: UInt64, schedule number: Int, depth: Int, decisions: Int) {
    var generator = SplitMix64(seed: SearchSeed.mix(seed, number))
    var changes = Set<Int>()
    for _ in 0..<max(depth - 1, 0) { changes.insert(generator.next(below: max(decisions, 1))) }
    self.generator = generator
    self.changes = changes
  }

  mutating func decide(_ decision: Decision) -> Int? {
    let keys = decision.options().map(\.key)
    for key in keys where priorities[key] == nil {
      priorities[key] = 1 + Double(generator.next() % 1_000_000) / 1_000_000
    }
    let top = keys.map { priorities[$0] ?? 0 }.max() ?? 0
    let best = keys.indices.filter { priorities[keys[$0]] == top }
    let pick = best[generator.next(below: best.count)]
    if changes.contains(decision.index) {
      lowest -= 1
      priorities[keys[pick]] = lowest
    }
    return pick
  }
}

/// PCT across schedules: each schedule expects as many decisions as the longest so far had,
/// so its priority changes fall where decisions are.
struct PCTSampler: ScheduleSampler {
  let seed: UInt64
  let depth: Int
  private var longest = 8

  init(seed: UInt64, depth: Int) {
    self.seed = seed
    self.depth = depth
  }

  func decider(forSchedule number: Int) -> PCTDecider {
    PCTDecider(seed: seed, schedule: number, depth: depth, decisions: longest)
  }

  mutating func learn(from run: ScheduleRun, decidedBy decider: PCTDecider) {
    longest = max(longest, run.decisions.count)
  }
}
