/// One schedule of a scenario, as the side that knows the scenario sets it up for the
/// explorer: how to start it, what it offers to choose, and what must hold.
///
/// The explorer knows jobs, choices and checks, nothing of providers, calls or clocks;
/// ``ExplorationSchedule`` builds one of these per schedule from the scenario's
/// ``ManualTaskProvider``, its open calls and its clock.
struct ScheduleSetup {
  /// Starts the scenario's task. Called once, while the schedule's scope adopts what it
  /// enqueues.
  var start: @MainActor () -> Void
  /// Whether the scenario has returned.
  var hasReturned: @MainActor () -> Bool
  /// What the scenario threw, if it did.
  var thrown: @MainActor () -> String?
  /// The name of the first property that must always hold and does not, if any.
  var brokenInvariant: @MainActor () -> String?
  /// The name of the first property that must hold at the end and does not, if any.
  var brokenFinalCheck: @MainActor () -> String?
  /// The properties read with `await` that must always hold, checked after the others.
  var awaitedInvariants: @MainActor () -> [AwaitedCheck] = { [] }
  /// The properties read with `await` that must hold at the end, checked after the others.
  var awaitedFinalChecks: @MainActor () -> [AwaitedCheck] = { [] }
  /// The scenario's choices open now, in an order that is the same in every run. They are
  /// offered beside the ready jobs at every step; the clock, if offered, comes last, and the
  /// schedule drops it while a job is ready.
  var choices: @MainActor () -> [ScheduleChoice]
  /// What the scenario left unfinished, described for a person; empty when nothing is.
  var pendingWork: @MainActor () -> [String]
  /// Ends what is still open (calls, sleeps) so the schedule's tasks can end.
  var cleanUp: @MainActor () -> Void
  /// How steps name the task whose handle has this address ("task #2 'tap'"), if the setup
  /// knows it (a task spawned through its provider).
  var taskLabel: @MainActor (UInt) -> String?

  /// A setup from its parts.
  init(
    start: @escaping @MainActor () -> Void,
    hasReturned: @escaping @MainActor () -> Bool,
    thrown: @escaping @MainActor () -> String?,
    brokenInvariant: @escaping @MainActor () -> String?,
    brokenFinalCheck: @escaping @MainActor () -> String?,
    choices: @escaping @MainActor () -> [ScheduleChoice],
    pendingWork: @escaping @MainActor () -> [String],
    cleanUp: @escaping @MainActor () -> Void,
    taskLabel: @escaping @MainActor (UInt) -> String?
  ) {
    self.start = start
    self.hasReturned = hasReturned
    self.thrown = thrown
    self.brokenInvariant = brokenInvariant
    self.brokenFinalCheck = brokenFinalCheck
    self.choices = choices
    self.pendingWork = pendingWork
    self.cleanUp = cleanUp
    self.taskLabel = taskLabel
  }
}

/// An option the scenario offers the explorer at any step: a person's action, an answer or
/// failure for an open call; and, once no job is ready, a move of the clock.
struct ScheduleChoice {
  /// What sort of option it is.
  enum Kind: Sendable {
    case action, complete, time
  }

  let kind: Kind
  /// What the option belongs to, the same in every run.
  let key: OptionKey
  /// How a schedule's steps name it.
  var label: String { makeLabel() }
  /// The task an outcome wakes, by its address, when known.
  let wakes: UInt?
  /// Takes the option.
  let apply: @MainActor () -> Void
  // Built only when asked: most schedules are never narrated, and formatting every option of
  // every step was a tenth of an exploration's time.
  private let makeLabel: () -> String

  /// An option.
  init(
    kind: Kind, key: OptionKey,
    label: @escaping @autoclosure () -> String, wakes: UInt? = nil,
    apply: @escaping @MainActor () -> Void
  ) {
    self.kind = kind
    self.key = key
    self.makeLabel = label
    self.wakes = wakes
    self.apply = apply
  }

  /// What the option touches.
  var footprint: OptionFootprint {
    switch kind {
    case .action: return OptionFootprint(key: key, place: .scenario, task: nil)
    case .complete: return OptionFootprint(key: key, place: .wake(key), task: wakes)
    case .time: return OptionFootprint(key: key, place: .clock, task: nil)
    }
  }
}
