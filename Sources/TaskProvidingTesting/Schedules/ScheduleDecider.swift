/// A point of a schedule where more than one thing could happen next.
struct Decision {
  /// What is being chosen.
  enum Kind: Equatable {
    /// Which ready job runs next; option 0 is the oldest (enqueue order).
    case job
    /// Which choice is taken while no job is ready; option 0 is the first offered.
    case choice
  }

  let kind: Kind
  /// Its place among the schedule's decisions, from 0.
  let index: Int
  /// How many options there are; at least two.
  let count: Int
  /// What each option is and touches, for a strategy that weighs options (PCT) or reduces
  /// them (exhaustive); computed on demand.
  let options: () -> [OptionFootprint]
}

/// A strategy's side of one schedule: it picks an option at each decision.
protocol ScheduleDecider {
  /// The option to take, or `nil` to stop the schedule (a replay that names an option that is
  /// not there).
  mutating func decide(_ decision: Decision) -> Int?
  /// Why it stopped the schedule, if the schedule went another way than the run it follows.
  var divergence: ScheduleDivergence? { get }
  /// Whether it is narrated of the steps taken with nothing to decide (``took(_:)``); naming a
  /// step's option costs a lookup, so only a decider that counts steps asks.
  var countsSteps: Bool { get }
  /// A step with one option, `option`, was taken.
  mutating func took(_ option: OptionFootprint)
  /// Whether it is narrated what each job and choice did (``ran(_:)``); recording it costs a
  /// lock a job.
  var recordsJobs: Bool { get }
  /// A job ran or a choice was taken, and did what `record` says.
  mutating func ran(_ record: JobRecord)
  /// Whether the schedule may take `only`, its one option at a step with nothing to decide;
  /// `false` stops it there (asked only of a decider that records jobs).
  mutating func mayTake(_ only: OptionFootprint) -> Bool
}

extension ScheduleDecider {
  var divergence: ScheduleDivergence? { nil }
  var countsSteps: Bool { false }
  mutating func took(_ option: OptionFootprint) {}
  var recordsJobs: Bool { false }
  mutating func ran(_ record: JobRecord) {}
  mutating func mayTake(_ only: OptionFootprint) -> Bool { true }
}
