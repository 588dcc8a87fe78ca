/// The schedules a trapping schedule's reduction tries, in the order it tries them: each
/// departure dropped, the last first, then each option above the second lowered to it. The
/// same order as ``FailureShrinker``'s, numbered, so that a reduction that dies with one of
/// them can be taken up again at the next by a fresh child process.
enum TrapCandidates {
  static func of(_ departures: [ReplayString.Departure]) -> [[ReplayString.Departure]] {
    var candidates: [[ReplayString.Departure]] = []
    for index in departures.indices.reversed() {
      var candidate = departures
      candidate.remove(at: index)
      candidates.append(candidate)
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
