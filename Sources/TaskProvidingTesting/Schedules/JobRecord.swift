/// What a job enqueued and set while it ran, as its scope saw it: the tasks whose jobs it
/// enqueued (started, woke, resumed), the actors whose turns it enqueued, whether it
/// enqueued work for the main actor, and whether it began a sleep.
struct JobEffects {
  var tasks: [TaskIdentity] = []
  var actors: [UInt] = []
  var mainActor = false
  var sleeps = false
}

/// One job of a schedule, or one choice taken, with what the scope saw it do: enough to say
/// when two steps commute, if no state is shared except through what the scope sees. An
/// action's code runs on the main actor; an answer or a move of the clock is known by its
/// footprint alone.
///
/// The scope sees the executor a job runs on, the jobs it enqueues (a task started, woken or
/// resumed from a continuation; an actor's turn; work for the main actor) and the sleeps it
/// begins. It does not see memory: a `Mutex`, an atomic, a lock of any kind, a task's
/// cancellation flag, unsafe memory. A task that hops onto an actor whose turn is already
/// enqueued joins the actor's queue without a job the scope sees, so a job counts every
/// actor with a turn ready when it ran among the actors it touched.
struct JobRecord: Hashable {
  /// The option taken: a task's job, an actor's turn or a choice.
  let footprint: OptionFootprint
  var key: OptionKey { footprint.key }
  /// Whether it ran on the main actor, or enqueued work for it.
  let mainActor: Bool
  /// The actors it ran on, enqueued turns of, or may have joined the queue of, by number.
  let actors: Set<Int>
  /// The tasks whose jobs it enqueued, by key.
  let woke: Set<OptionKey>
  /// Whether it began a sleep: sleeps that end at the same instant end in the order they
  /// began.
  let sleeps: Bool

  /// Whether running `self` then `other` leads where `other` then `self` does, provided the
  /// two share no state the scope does not see.
  func commutes(with other: JobRecord) -> Bool {
    guard key != other.key else { return false }
    if mainActor && other.mainActor { return false }
    if sleeps && other.sleeps { return false }
    if !actors.isDisjoint(with: other.actors) { return false }
    if woke.contains(other.key) || other.woke.contains(key) { return false }
    return woke.isDisjoint(with: other.woke)
  }
}

/// The records of the jobs a search has run, each by the decisions that led to it and the
/// option taken there, so that a later schedule of the search that meets the same decisions
/// knows what each option it leaves for later did when it ran. Only the search's schedules,
/// one at a time, touch it.
final class JobRecordStore {
  struct Place: Hashable {
    /// The decisions taken before, hashed.
    let path: UInt64
    let option: Int
  }

  var records: [Place: JobRecord] = [:]

  /// The path after `path` with `pick` taken.
  static func extend(_ path: UInt64, with pick: Int) -> UInt64 {
    var generator = SplitMix64(seed: path ^ (UInt64(pick) &* 0xFF51_AFD7_ED55_8CCD))
    return generator.next()
  }
}
