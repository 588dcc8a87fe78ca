/// One seed per schedule, from the search's seed and the schedule's number: schedules of one
/// search differ, and each replays alone.
enum SearchSeed {
  static func mix(_ seed: UInt64, _ number: Int) -> UInt64 {
    var generator = SplitMix64(seed: seed ^ (UInt64(number) &* 0x9E37_79B9_7F4A_7C15))
    return generator.next()
  }
}
