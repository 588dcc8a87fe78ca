/// Where a schedule that follows the decisions of an earlier run met a decision unlike the one
/// that run met after the same choices: something the explorer does not control changed the
/// order of the scenario's jobs (uncontrolled nondeterminism), so the schedule cannot be run
/// again as it was.
struct ScheduleDivergence: Equatable {
  /// The decision, by its place among the schedule's decisions, from 0.
  let decision: Int
  /// What the earlier run met there: the kind of decision and how many options.
  let expected: Shape?
  /// What this run met there.
  let found: Shape
  /// The option the earlier run took there, when this run has no such option.
  let option: Int?

  /// A decision's kind and its number of options.
  struct Shape: Equatable {
    let kind: Decision.Kind
    let count: Int

    var description: String {
      switch kind {
      case .job: "\(count) ready jobs"
      case .choice: "\(count) choices with no job ready"
      }
    }
  }

  /// What diverged, as a person reads it, with the usual causes.
  var description: String {
    let met =
      if let expected {
        "an earlier run with the same choices met \(expected.description) at decision"
          + " \(decision), and this one met \(found.description)"
      } else {
        "option \(option ?? 0) is not there at decision \(decision), which offers"
          + " \(found.description)"
      }
    return met + ". " + Self.causes
  }

  /// What changes a scenario's order from one run to the next behind the explorer's back.
  static var causes: String {
    var causes =
      "Something the explorer does not control changed the order of the scenario's jobs:"
      + " a thread of its own or a dispatch queue, a clock or random numbers, or the order"
      + " of a Dictionary or Set, which depends on where each table is in memory"
    if environmentValue("SWIFT_DETERMINISTIC_HASHING") != "1" {
      causes += " (set SWIFT_DETERMINISTIC_HASHING=1 in the test's environment to fix it)"
    }
    return causes + "."
  }
}
