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

/// One seed per schedule, from the search's seed and the schedule's number: schedules of one
/// search differ, and each replays alone.
enum SearchSeed {
  static func mix(_ seed: UInt64, _ number: Int) -> UInt64 {
    var generator = SplitMix64(seed: seed ^ (UInt64(number) &* 0x9E37_79B9_7F4A_7C15))
    return generator.next()
  }
}

/// `schedules` schedules, each decision taken uniformly at random.
struct RandomSearch: ScheduleSearch {
  let strategy: ExplorationStrategy
  let seed: UInt64
  let schedules: Int
  var underWay: ScheduleUnderWay<RandomDecider>?
  private var number = 1

  init(_ strategy: ExplorationStrategy, seed: UInt64, schedules: Int) {
    self.strategy = strategy
    self.seed = seed
    self.schedules = max(schedules, 1)
  }

  func next() -> NextSchedule<RandomDecider> {
    guard number <= schedules else {
      return .finished(
        ExplorationReport(
          strategy: strategy, schedules: schedules, isComplete: false, failure: nil))
    }
    return .run(RandomDecider(seed: seed, schedule: number))
  }

  mutating func ran(_ run: ScheduleRun, with decider: RandomDecider) -> SearchStep {
    if run.failure != nil { return .found(run, number: number) }
    number += 1
    return .searching
  }
}
