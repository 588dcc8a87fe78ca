/// The schedules a failing schedule's shrinking tries, in the order it tries them: runs of
/// departures dropped, halves first, then quarters, down to each departure alone, the last
/// first at each size (as delta debugging does, so a schedule that departs at every yield of
/// a loop loses the departures that do not matter a run at a time, not one a schedule), then
/// each option above the second lowered to it. ``FailureShrinker`` and the shrinking of a
/// trapping schedule both try them in this order, numbered, so that a shrinking that dies
/// with one of them can be taken up again at the next by a fresh child process.
enum TrapCandidates {
  static func of(_ departures: [ReplayString.Departure]) -> [[ReplayString.Departure]] {
    var candidates: [[ReplayString.Departure]] = []
    var sizes: [Int] = []
    var size = departures.count
    while size > 1 {
      size = (size + 1) / 2
      sizes.append(size)
    }
    if !departures.isEmpty, sizes.last != 1 { sizes.append(1) }
    for size in sizes {
      let starts = Array(stride(from: 0, to: departures.count, by: size))
      for start in starts.reversed() {
        var candidate = departures
        candidate.removeSubrange(start..<min(start + size, departures.count))
        if !candidates.contains(candidate) { candidates.append(candidate) }
      }
    }
    for index in departures.indices where departures[index].option > 1 {
      var candidate = departures
      candidate[index] = .init(decision: departures[index].decision, option: 1)
      candidates.append(candidate)
    }
    return candidates
  }

  /// Whether `candidate`, which trapped the same way, is nearer the default order than
  /// `best`: fewer departures, or as many with lower options.
  static func improves(
    _ candidate: [ReplayString.Departure], on best: [ReplayString.Departure]
  ) -> Bool {
    let weight = { (departures: [ReplayString.Departure]) in
      departures.reduce(0) { $0 + $1.option }
    }
    return candidate.count < best.count
      || (candidate.count == best.count && weight(candidate) < weight(best))
  }
}
