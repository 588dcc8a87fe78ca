/// A uniform random walk (after Zhao, Wolff, Mathur and Roychoudhury, ASPLOS 2025): each
/// option is drawn with a weight of how many more steps its task (or choice) is expected to
/// take in this schedule, as earlier schedules of the search counted. An actor's turn counts
/// as a step of the task that hopped onto the actor: a task that goes back and forth between
/// an actor and the pool is one line of steps, not two.
///
/// A walk that draws uniformly at each step makes the orders where one task runs far ahead
/// of another rare: after a few steps the other has almost surely gone. Weighted by what is
/// left, every order of the scenario's steps is about as likely as any other when the counts
/// are right. They are estimates: the first schedule walks uniformly, a task the search has
/// not met yet weighs as little as the least one met, and a task's children are not counted
/// with it.
struct UniformWalkDecider: ScheduleDecider {
  private var generator: SplitMix64
  /// How many steps each key took in a schedule, on average over the earlier ones.
  private let expected: [OptionKey: Int]
  private let unmet: Int
  /// How many steps each key has taken in this schedule, chosen or the only option.
  private(set) var chosen: [OptionKey: Int] = [:]

  /// The decider of schedule `number` (from 1) of a search seeded with `seed`, weighing by
  /// `expected`.
  init(seed: UInt64, schedule number: Int, expected: [OptionKey: Int]) {
    generator = SplitMix64(seed: SearchSeed.mix(seed, number))
    self.expected = expected
    unmet = expected.values.min() ?? 1
  }

  mutating func decide(_ decision: Decision) -> Int? {
    let options = decision.options()
    // The outcomes of one call share their call's weight.
    var outcomes: [OptionKey: Int] = [:]
    for option in options { outcomes[option.key, default: 0] += 1 }
    let weights = options.map { option -> UInt64 in
      let left = (expected[option.counted] ?? unmet) - chosen[option.counted, default: 0]
      return UInt64(min(max(left, 1), 1 << 40) * 1_000 / outcomes[option.key, default: 1])
    }
    var draw = generator.next() % max(weights.reduce(0, +), 1)
    var pick = options.count - 1
    for (index, weight) in weights.enumerated() {
      if draw < weight {
        pick = index
        break
      }
      draw -= weight
    }
    chosen[options[pick].counted, default: 0] += 1
    return pick
  }

  var countsSteps: Bool { true }

  mutating func took(_ option: OptionFootprint) {
    chosen[option.counted, default: 0] += 1
  }
}

/// The uniform walk across schedules: each weighs its options by the steps the schedules
/// before it counted.
struct UniformWalkSampler: ScheduleSampler {
  let seed: UInt64
  /// How many steps each key took, over every schedule that passed so far, and how many
  /// schedules those were.
  private var totals: [OptionKey: Int] = [:]
  private var runs = 0

  init(seed: UInt64) { self.seed = seed }

  func decider(forSchedule number: Int) -> UniformWalkDecider {
    let runs = self.runs
    let expected = totals.mapValues { runs == 0 ? 1 : ($0 + runs - 1) / runs }
    return UniformWalkDecider(seed: seed, schedule: number, expected: expected)
  }

  mutating func learn(from run: ScheduleRun, decidedBy decider: UniformWalkDecider) {
    for (key, count) in decider.chosen { totals[key, default: 0] += count }
    runs += 1
  }
}
