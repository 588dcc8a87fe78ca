/// How one schedule went: every decision taken, and the failure, if any.
struct ScheduleRun {
  /// One decision: what was chosen among how many.
  struct Taken: Equatable {
    let kind: Decision.Kind
    let count: Int
    let pick: Int
  }

  var decisions: [Taken] = []
  var failure: ScheduleFailure?
  /// Where it went another way than the run its decider followed: it stopped there, and
  /// says nothing of the scenario.
  var divergence: ScheduleDivergence?
  /// The steps as a person reads them; only when the run was narrated.
  var steps: [String] = []
  /// Every step, none folded; only when the run was narrated.
  var everyStep: [String] = []
  /// The steps not yet narrated, when the run was narrated to be narrated later, off the main actor.
  var narration: ScheduleNarrator.Narration?

  /// Each decision's kind and number of options, for a run that follows this one to check
  /// that it meets the same.
  var shape: [ScheduleDivergence.Shape] {
    decisions.map { ScheduleDivergence.Shape(kind: $0.kind, count: $0.count) }
  }

  /// How many decisions took an option other than the default.
  var departureCount: Int { decisions.count { $0.pick != 0 } }

  /// How many job decisions ran a job other than the oldest ready one.
  var jobDepartures: Int { decisions.count { $0.kind == .job && $0.pick != 0 } }

  /// The decisions that departed from the default, by their place among all decisions.
  var departures: [ReplayString.Departure] {
    decisions.enumerated().compactMap { index, taken in
      taken.pick == 0 ? nil : ReplayString.Departure(decision: index, option: taken.pick)
    }
  }
}
