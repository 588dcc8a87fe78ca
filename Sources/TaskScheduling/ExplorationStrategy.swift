/// How `explore` (in TaskProvidingTesting) makes each choice of a
/// schedule: which of the scenario's ready jobs runs next, which held task starts next,
/// which open call completes next and how, when the person's next action comes, and when the
/// exploration's clock moves.
public enum ExplorationStrategy: Sendable, Hashable, CustomStringConvertible {
  /// Every schedule, depth first, up to `limit` of them: every order of the actions, task
  /// starts, answers and clock moves, and every order of ready jobs that departs from enqueue
  /// order at most `deviations` times (iterative context bounding: all schedules with no
  /// departure first, then with one, and so on). The report says whether that was all of
  /// them, and whether the bound left any order out.
  case exhaustive(limit: Int = 10_000, deviations: Int = 2)
  /// `schedules` schedules, each choice drawn uniformly from a generator seeded by `seed`
  /// and the schedule's number.
  case random(seed: UInt64 = 0, schedules: Int = 1_000)
  /// Probabilistic concurrency testing: each task (and each action, call and clock) gets a
  /// random priority when it first becomes ready, the highest ready one goes first, and at
  /// `depth - 1` random steps the one chosen drops to the lowest priority. Finds a bug that
  /// needs `depth` orderings to go wrong with a probability that does not shrink with the
  /// number of choices.
  case pct(seed: UInt64 = 0, schedules: Int = 1_000, depth: Int = 3)

  /// The strategy and its parameters, in words.
  public var description: String {
    switch self {
    case .exhaustive(let limit, let deviations):
      "exhaustive (limit \(limit), \(deviations) \(deviations == 1 ? "deviation" : "deviations"))"
    case .random(let seed, let schedules): "random (seed \(seed), \(schedules) schedules)"
    case .pct(let seed, let schedules, let depth):
      "PCT (seed \(seed), \(schedules) schedules, depth \(depth))"
    }
  }
}
