/// Names each job and choice by what it belongs to, the same way in every run of a scenario:
/// tasks and actors by the order they were first seen in, so PCT can give each a priority.
struct JobKeys {
  private var tasks: [TaskIdentity: Int] = [:]
  private var actors: [UInt: Int] = [:]
  /// The steps of the job that ran last, once a sampler that counts steps says so: an
  /// actor's turn first seen after it was enqueued by that job, so it goes on with its
  /// steps (the runtime clears the current task before it enqueues the turn).
  var lastRan: OptionKey?
  /// Each actor's turn's strand, by its place in the enqueue order, as first seen.
  private var turnStrands: [Int: OptionKey] = [:]

  mutating func footprint(of job: ReadyJob) -> OptionFootprint {
    if let task = job.task {
      return OptionFootprint(
        key: .task(number(task)), place: job.lane == .mainActor ? .mainActor : .pool,
        task: task.address)
    }
    // Not a task: an actor's turn.
    let actor = number(actor: job.actor ?? unsafeBitCast(job.job, to: UInt.self))
    var strand: OptionKey?
    if let known = turnStrands[job.sequence] {
      strand = known
    } else if let lastRan {
      turnStrands[job.sequence] = lastRan
      strand = lastRan
    }
    return OptionFootprint(key: .actor(actor), place: .actor(actor), task: nil, strand: strand)
  }

  /// The record of `job`, which ran with `effects` while `ready` were ready.
  mutating func record(
    of job: ReadyJob, effects: JobEffects, ready: [ReadyJob]
  ) -> JobRecord {
    let footprint = footprint(of: job)
    var actors = Set<Int>()
    if case .actor(let number) = footprint.place { actors.insert(number) }
    return record(
      footprint, effects: effects, mainActor: job.lane == .mainActor || effects.mainActor,
      actors: actors,
      // A hop onto an actor whose turn is ready joins its queue unseen.
      joinable: ready.filter { $0.task == nil }.map {
        $0.actor ?? unsafeBitCast($0.job, to: UInt.self)
      })
  }

  /// The record of a choice taken with `effects`: an action's code runs on the main actor
  /// and enqueues what its effects say; an answer or a move of the clock runs no code of
  /// the scenario and is known by its footprint.
  mutating func record(ofChoice footprint: OptionFootprint, effects: JobEffects) -> JobRecord {
    record(footprint, effects: effects, mainActor: true, actors: [], joinable: [])
  }

  /// The record of the step `footprint`: `actors` (by number), the actors its effects name
  /// and those it may have joined the queue of (`joinable`, by address), and the tasks its
  /// effects name.
  private mutating func record(
    _ footprint: OptionFootprint, effects: JobEffects, mainActor: Bool, actors: Set<Int>,
    joinable: [UInt]
  ) -> JobRecord {
    var actors = actors
    for address in effects.actors + joinable { actors.insert(number(actor: address)) }
    var woke = Set<OptionKey>()
    for task in effects.tasks { woke.insert(.task(number(task, startedBy: footprint.key))) }
    return JobRecord(
      footprint: footprint, mainActor: mainActor, actors: actors, woke: woke,
      sleeps: effects.sleeps)
  }

  /// Whether a task is named by where it was started (the option whose job started it, and
  /// how many that option had started before), rather than by when this run first met it:
  /// the same in every run that starts it the same way, whatever ran between, so records
  /// of jobs from different schedules can be compared.
  var namesByOrigin = false
  /// How many tasks each option has started, when naming by origin.
  private var started: [OptionKey: Int] = [:]

  private mutating func number(_ task: TaskIdentity, startedBy origin: OptionKey? = nil) -> Int {
    if let number = tasks[task] { return number }
    guard namesByOrigin else {
      tasks[task] = tasks.count
      return tasks.count - 1
    }
    // Tasks started by no job the scope saw (the scenario's body, its actions) count from
    // the scenario.
    let origin = origin ?? .action(-1)
    let index = started[origin, default: 0]
    started[origin] = index + 1
    var generator = SplitMix64(seed: Self.code(origin) ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
    let number = Int(truncatingIfNeeded: generator.next() >> 1)
    tasks[task] = number
    return number
  }

  /// A number for `key`, the same in every process (a `Hasher`'s is not).
  private static func code(_ key: OptionKey) -> UInt64 {
    switch key {
    case .task(let number): UInt64(truncatingIfNeeded: number) &* 31 &+ 1
    case .actor(let number): UInt64(truncatingIfNeeded: number) &* 31 &+ 2
    case .action(let number): UInt64(truncatingIfNeeded: number) &* 31 &+ 3
    case .call(let number): UInt64(truncatingIfNeeded: number) &* 31 &+ 4
    case .clock: 5
    case .sleeps: 6
    }
  }

  private mutating func number(actor address: UInt) -> Int {
    if let number = actors[address] { return number }
    actors[address] = actors.count
    return actors.count - 1
  }
}
