/// A strategy's walk across schedules, one schedule at a time.
///
/// The explorer's loop advances the search a step at a time, so that the loop, not the
/// strategy, decides where the main actor is given back: the synchronous `explore` runs the
/// steps back to back, the `async` one lets other main-actor work run between two, and while
/// a schedule waits for work outside its scope.
///
/// A strategy is an object: the explorer keeps it in its course between steps, and a value
/// taken out of the course to step would share its collections with the copy left behind,
/// so that each step copied every one it changed.
@MainActor
protocol ScheduleStrategy: AnyObject {
  associatedtype Decider: ScheduleDecider
  /// The schedule under way, kept between two steps while it waits for outside work.
  var underWay: ScheduleUnderWay<Decider>? { get set }
  /// The next schedule's decider, or the report once the search is over.
  func next() -> NextSchedule<Decider>
  /// Takes in how the schedule `decider` decided went.
  func ran(_ run: ScheduleRun, with decider: Decider) -> SearchStep
}

/// What a search runs next.
enum NextSchedule<Decider: ScheduleDecider> {
  /// A schedule, decided by this decider.
  case run(Decider)
  /// Nothing: the search ran every schedule it was asked for, none failing.
  case finished(ExplorationReport)
}

/// Where a search stands after a step.
enum SearchStep {
  /// It ran a schedule that did not fail, and has more to run.
  case searching
  /// Its schedule waits for a job from outside its scope.
  case waiting(OutsideWork)
  /// Schedule `number` failed: the search is over, and the failure is to be shrunk and narrated.
  case found(ScheduleRun, number: Int)
  /// It ran every schedule it was asked for, none failing.
  case finished(ExplorationReport)
}

extension ScheduleStrategy {
  /// Whether no schedule is under way: the search stands between two.
  var isBetweenSchedules: Bool { underWay == nil }

  /// Runs the schedule under way, or the next one, on `context` until it ends; where it must
  /// wait for outside work, waits if `blocks`, else returns ``SearchStep/waiting(_:)``.
  func step(_ context: ExplorationContext, waiting blocks: Bool) -> SearchStep {
    let schedule: ScheduleUnderWay<Decider>
    if let underWay {
      schedule = underWay
    } else {
      switch next() {
      case .finished(let report): return .finished(report)
      case .run(let decider):
        schedule = ScheduleUnderWay(of: context, decider: decider, narrate: false)
      }
    }
    guard let run = schedule.advance(waiting: blocks) else {
      underWay = schedule
      return schedule.outsideWork.map(SearchStep.waiting) ?? .searching
    }
    underWay = nil
    return ran(run, with: schedule.decider)
  }
}
