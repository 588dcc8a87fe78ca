/// How `explore` makes each choice of a schedule: which of the scenario's ready jobs runs next (a task's start among them), which
/// open call completes next and how, when the person's next action comes, and when the
/// exploration's clock moves.
public enum ExplorationStrategy: Sendable, Hashable, CustomStringConvertible {
  /// Every schedule, depth first, up to `limit` of them, in rounds by how often a schedule
  /// departs from the default order while a job is ready (iterative context bounding): all
  /// schedules with no departure first, then with one, and so on, while the round before
  /// left some order out and the limit is not spent. `departures` caps the rounds; `nil`
  /// raises the bound until the whole space is covered or the limit is reached. Schedules
  /// that only swap two options that commute are left out (see the Exploring Schedules
  /// article). The report says the bound reached and whether that was every schedule.
  ///
  /// `reduction` says which schedules count as the same: by default only those the explorer
  /// knows lead to the same place whatever the code does; ``ExplorationReduction/assumingNoHiddenSharing``
  /// also takes two jobs to commute where what the scope saw them do does not meet, which
  /// covers much larger spaces, on an assumption the report states.
  case exhaustive(
    limit: Int = 10_000, departures: Int? = nil, reduction: ExplorationReduction = .whereCertain)
  /// `schedules` schedules, each choice drawn uniformly from a generator seeded by `seed`
  /// and the schedule's number.
  case random(seed: UInt64 = 0, schedules: Int = 1_000)
  /// Probabilistic concurrency testing: each task (and each action, call and clock) gets a
  /// random priority when it first becomes ready, the highest ready one goes first, and at
  /// `depth - 1` random steps the one chosen drops to the lowest priority. Finds a bug that
  /// needs `depth` orderings to go wrong with a probability that does not shrink with the
  /// number of choices.
  case pct(seed: UInt64 = 0, schedules: Int = 1_000, depth: Int = 3)
  /// Partial order sampling: each task, actor and choice gets a random priority when first
  /// seen, and the highest ready one goes; after it goes, it and whatever races with it (its
  /// own task, its actor, the main actor, the scenario's actions and the clock) draw anew,
  /// while the rest keep theirs. A task that drew low stays behind for as long as nothing it
  /// races with runs, as the bugs that need a long delay want.
  case pos(seed: UInt64 = 0, schedules: Int = 1_000)
  /// A uniform random walk: each option is drawn with the weight of how many more steps its
  /// task, actor or choice took in the schedules before, so that a task far ahead of another
  /// is as likely as any other order. The first schedule draws uniformly.
  case uniformWalk(seed: UInt64 = 0, schedules: Int = 1_000)

  /// The strategy and its parameters, in words.
  public var description: String {
    switch self {
    case .exhaustive(let limit, let departures?, let reduction):
      "exhaustive (limit \(limit), \(departures) \(departures == 1 ? "departure" : "departures")"
        + reduction.suffix + ")"
    case .exhaustive(let limit, nil, let reduction):
      "exhaustive (limit \(limit)" + reduction.suffix + ")"
    case .random(let seed, let schedules): "random (seed \(seed), \(schedules) schedules)"
    case .pct(let seed, let schedules, let depth):
      "PCT (seed \(seed), \(schedules) schedules, depth \(depth))"
    case .pos(let seed, let schedules): "POS (seed \(seed), \(schedules) schedules)"
    case .uniformWalk(let seed, let schedules):
      "uniform walk (seed \(seed), \(schedules) schedules)"
    }
  }
}

/// Which schedules an exhaustive exploration counts as the same, and so runs only one of.
public enum ExplorationReduction: Sendable, Hashable {
  /// Only schedules that differ by the order of two steps the explorer knows commute
  /// whatever the code does: answering a call (waking a task) and a job of another task, or
  /// two answers to different calls. Every bug the full space holds is still found.
  case whereCertain
  /// Also schedules that differ by the order of two jobs whose effects the scope saw do not
  /// meet: different tasks, on different actors (and not both on the main actor), neither
  /// waking or starting the other's task or the same one, not both beginning a sleep. It
  /// assumes the scenario's tasks share no state but through what the scope sees; state
  /// behind a `Mutex`, an atomic, any lock, a task's cancellation, or unsafe memory breaks
  /// the assumption, and an order that matters only there may be left out. The report
  /// says so (``ExplorationReport/assumption``).
  case assumingNoHiddenSharing

  var suffix: String {
    switch self {
    case .whereCertain: ""
    case .assumingNoHiddenSharing: ", assuming no hidden sharing"
    }
  }
}
