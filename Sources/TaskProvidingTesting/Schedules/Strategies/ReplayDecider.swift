/// Takes the decisions a replay string names.
struct ReplayDecider: ScheduleDecider {
  private var options: [Int: Int] = [:]
  /// Whether an option named that is not there becomes the default instead of stopping the
  /// schedule: what shrinking a failure needs, since removing one departure can move the
  /// decisions after it.
  private let lenient: Bool
  /// The decisions the run it replays met, to stop where this one meets others; empty: none
  /// known (a replay string from a person).
  private let shape: [ScheduleDivergence.Shape]
  private(set) var divergence: ScheduleDivergence?

  init(
    _ departures: [ReplayString.Departure], lenient: Bool = false,
    shape: [ScheduleDivergence.Shape] = []
  ) {
    self.lenient = lenient
    self.shape = shape
    for departure in departures { options[departure.decision] = departure.option }
  }

  mutating func decide(_ decision: Decision) -> Int? {
    let option = options[decision.index] ?? 0
    let found = ScheduleDivergence.Shape(kind: decision.kind, count: decision.count)
    if decision.index < shape.count, shape[decision.index] != found, !lenient {
      divergence = ScheduleDivergence(
        decision: decision.index, expected: shape[decision.index], found: found, option: nil)
      return nil
    }
    guard option < decision.count else {
      if lenient { return 0 }
      divergence = ScheduleDivergence(
        decision: decision.index, expected: nil, found: found, option: option)
      return nil
    }
    return option
  }
}
