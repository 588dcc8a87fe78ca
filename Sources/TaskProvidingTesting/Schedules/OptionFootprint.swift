/// What one option of a schedule touches, as far as the explorer can tell: its name, the
/// same in every run that reaches it (strategies weigh options by it), and what the
/// exhaustive search needs to know that two options commute.
struct OptionFootprint: Hashable {
  /// Where the option's code runs, or what it does instead of running code.
  enum Place: Hashable {
    /// A job on the main actor.
    case mainActor
    /// A turn of an actor, numbered in the order the schedule first met it.
    case actor(Int)
    /// A job of a task outside any actor.
    case pool
    /// The scenario's own code: one of its actions.
    case scenario
    /// A move of the exploration's clock.
    case clock
    /// It runs none of the scenario's code, only makes one waiting task ready: one outcome
    /// of an open call. Options that share the key (the outcomes of one call) exclude each
    /// other.
    case wake(OptionKey)
  }

  let key: OptionKey
  let place: Place
  /// The task the option runs, or the one it wakes, by its address in this run; `nil` when
  /// the explorer cannot tell.
  let task: UInt?
  /// For an actor's turn, the key of the task whose job enqueued it (the one that hopped
  /// onto the actor), whose steps the turn goes on with: a sampler that weighs a task by the
  /// steps it has left counts the turn among them. Known only to a sampler that counts
  /// steps.
  var strand: OptionKey? = nil

  /// The key a sampler counts the option's steps under: its task's, for an actor's turn.
  var counted: OptionKey { strand ?? key }

  /// Whether it runs one of the scenario's jobs, rather than a choice of the scenario's.
  var isJob: Bool {
    switch place {
    case .mainActor, .actor, .pool: true
    case .scenario, .clock, .wake: false
    }
  }

  /// Whether it runs the scenario's code, a job or an action, so that what that code enqueued
  /// can be recorded; an answer or a move of the clock is known by its footprint alone.
  var runsCode: Bool {
    switch place {
    case .mainActor, .actor, .pool, .scenario: true
    case .clock, .wake: false
    }
  }

  /// Whether taking `self` then `other` leads where `other` then `self` does, whatever the
  /// code does.
  ///
  /// The explorer sees jobs and wakes, not the memory a job touches, so it claims this only
  /// where no code can tell the two orders apart: waking a task runs none of the scenario's
  /// code and only adds the woken task's job to the queue, so it commutes with any job of
  /// another task and with waking another task. Everything else is taken to depend on
  /// everything: two jobs may share a lock, a cancellation or an actor one of them hops to.
  func commutes(with other: OptionFootprint) -> Bool {
    guard key != other.key else { return false }
    switch (place, other.place) {
    case (.wake(let one), .wake(let another)):
      return one != another
    case (.wake, .mainActor), (.wake, .actor), (.wake, .pool):
      return task != nil && other.task != nil && task != other.task
    case (.mainActor, .wake), (.actor, .wake), (.pool, .wake):
      return task != nil && other.task != nil && task != other.task
    default:
      return false
    }
  }

  /// Whether the two may touch the same thing, for a sampler that draws anew only for what
  /// races with the option it took (``POSDecider``): options of one task, actor or call, a
  /// wake and the task it wakes, two jobs of the main actor, and the scenario's actions and
  /// the clock, which touch everything.
  ///
  /// Two jobs of different tasks off any actor are taken not to race: the explorer cannot see
  /// the memory they share. This weighs samples; it is never a reason to leave an order out.
  func races(with other: OptionFootprint) -> Bool {
    if key == other.key { return true }
    switch (place, other.place) {
    case (.scenario, _), (_, .scenario), (.clock, _), (_, .clock): return true
    case (.mainActor, .mainActor): return true
    case (.actor(let one), .actor(let another)): return one == another
    case (.wake(let one), .wake(let another)): return one == another
    default: return task != nil && task == other.task
    }
  }
}

/// What an option belongs to, the same in every run that reaches it: PCT gives each its own
/// priority, the outcomes of one call share theirs, and sleep sets know an option again by
/// it. A value, not a string: it is made for every option of every decision.
enum OptionKey: Hashable, Sendable, CustomStringConvertible {
  /// A job of the task the scenario met `n`th.
  case task(Int)
  /// A turn of the actor the scenario met `n`th.
  case actor(Int)
  /// The scenario's action `n`.
  case action(Int)
  /// An outcome of the open call `n`.
  case call(Int)
  /// A move of the exploration's clock.
  case clock
  /// The end of the earliest sleep, on the scope's virtual time.
  case sleeps

  var description: String {
    switch self {
    case .task(let number): "task \(number)"
    case .actor(let number): "actor \(number)"
    case .action(let number): "action \(number)"
    case .call(let number): "call \(number)"
    case .clock: "clock"
    case .sleeps: "sleeps"
    }
  }
}
