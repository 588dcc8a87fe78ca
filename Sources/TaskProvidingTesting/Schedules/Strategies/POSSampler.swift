/// Partial order sampling (Yuan, Yang and Gu, CAV 2018): each option gets a random priority
/// when first seen and the highest goes; once it has gone, it and every option that races with
/// it (``OptionFootprint/races(with:)``) draw anew, and the rest keep theirs.
///
/// A task that drew low stays behind for as long as nothing it races with runs, which a
/// walk that draws afresh at every step almost never does; and two schedules that only
/// reorder options that do not race are as likely as one, so the samples spread over orders
/// that differ where it matters.
struct POSDecider: ScheduleDecider {
  private var generator: SplitMix64
  private var priorities: [OptionKey: UInt64] = [:]

  /// The decider of schedule `number` (from 1) of a search seeded with `seed`.
  init(seed: UInt64, schedule number: Int) {
    generator = SplitMix64(seed: SearchSeed.mix(seed, number))
  }

  mutating func decide(_ decision: Decision) -> Int? {
    let options = decision.options()
    var best: [Int] = []
    var top: UInt64 = 0
    for (index, option) in options.enumerated() {
      let priority = priorities[option.key] ?? generator.next()
      priorities[option.key] = priority
      if best.isEmpty || priority > top {
        best = [index]
        top = priority
      } else if priority == top {
        // The outcomes of one call share their call's priority.
        best.append(index)
      }
    }
    let pick = best[generator.next(below: best.count)]
    for option in options where option.races(with: options[pick]) {
      priorities[option.key] = nil
    }
    return pick
  }
}

/// Partial order sampling across schedules: a fresh decider each.
struct POSSampler: ScheduleSampler {
  let seed: UInt64

  func decider(forSchedule number: Int) -> POSDecider {
    POSDecider(seed: seed, schedule: number)
  }
}
