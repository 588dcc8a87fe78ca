/// A sampling strategy's side of a search: the decider of each schedule, and what it learns
/// from each schedule that passed.
protocol ScheduleSampler {
  associatedtype Decider: ScheduleDecider
  /// The decider of schedule `number` (from 1).
  func decider(forSchedule number: Int) -> Decider
  /// Takes in how a schedule that passed went, decided by `decider`.
  mutating func learn(from run: ScheduleRun, decidedBy decider: Decider)
}

extension ScheduleSampler {
  mutating func learn(from run: ScheduleRun, decidedBy decider: Decider) {}
}

/// `schedules` schedules, each decided afresh by the sampler's decider, until one fails.
final class SampledStrategy<Sampler: ScheduleSampler>: ScheduleStrategy {
  let strategy: ExplorationStrategy
  let schedules: Int
  private var sampler: Sampler
  var underWay: ScheduleUnderWay<Sampler.Decider>?
  private var number = 1

  init(_ strategy: ExplorationStrategy, schedules: Int, sampler: Sampler) {
    self.strategy = strategy
    self.schedules = max(schedules, 1)
    self.sampler = sampler
  }

  func next() -> NextSchedule<Sampler.Decider> {
    guard number <= schedules else {
      return .finished(
        ExplorationReport(
          strategy: strategy, schedules: schedules, isComplete: false, failure: nil))
    }
    return .run(sampler.decider(forSchedule: number))
  }

  func ran(_ run: ScheduleRun, with decider: Sampler.Decider) -> SearchStep {
    if run.failure != nil { return .found(run, number: number) }
    sampler.learn(from: run, decidedBy: decider)
    number += 1
    return .searching
  }
}
