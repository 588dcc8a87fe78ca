/// Takes each decision uniformly at random from a generator seeded for the schedule.
struct RandomDecider: ScheduleDecider {
  private var generator: SplitMix64

  /// The decider of schedule `number` (from 1) of a search seeded with `seed`.
  init(seed: UInt64, schedule number: Int) {
    generator = SplitMix64(seed: SearchSeed.mix(seed, number))
  }

  mutating func decide(_ decision: Decision) -> Int? {
    generator.next(below: decision.count)
  }
}

/// Random search: each decision taken uniformly at random.
struct RandomSampler: ScheduleSampler {
  let seed: UInt64

  func decider(forSchedule number: Int) -> RandomDecider {
    RandomDecider(seed: seed, schedule: number)
  }
}
