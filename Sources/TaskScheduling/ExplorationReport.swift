/// What an exploration found.
public struct ExplorationReport: Sendable, CustomStringConvertible {
  /// The strategy that chose.
  public let strategy: ExplorationStrategy
  /// How many distinct schedules ran.
  public let schedules: Int
  /// For an exhaustive exploration: whether those were all the schedules within its bound on
  /// departures from enqueue order (the limit was not reached).
  public let isComplete: Bool
  /// For an exhaustive exploration: whether some order of ready jobs was left out only
  /// because it departs from enqueue order more often than the bound allows. `false` with
  /// ``isComplete`` means every schedule there is was run.
  public let boundLeftSchedulesOut: Bool
  /// The first schedule that failed, if one did, reduced to the fewest departures from the
  /// default order that still fail.
  public let failure: ExplorationFailure?

  /// A report, as the explorer makes one.
  package init(
    strategy: ExplorationStrategy, schedules: Int, isComplete: Bool,
    boundLeftSchedulesOut: Bool = false, failure: ExplorationFailure?
  ) {
    self.strategy = strategy
    self.schedules = schedules
    self.isComplete = isComplete
    self.boundLeftSchedulesOut = boundLeftSchedulesOut
    self.failure = failure
  }

  /// The report as a person reads it: the failure, or how much was covered.
  public var description: String {
    if let failure { return failure.description }
    var coverage = ""
    if case .exhaustive(_, let deviations) = strategy, isComplete {
      coverage =
        boundLeftSchedulesOut
        ? " (all of them within \(deviations) departures from enqueue order; more departures"
          + " would give more)"
        : " (all of them)"
    }
    return "\(strategy): \(schedules) schedules passed\(coverage)."
  }
}
