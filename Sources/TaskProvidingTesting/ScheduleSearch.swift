/// A strategy's walk across schedules, one schedule a step.
///
/// The explorer's loop asks for one step at a time, so that the loop, not the strategy,
/// decides where the main actor is given back: the synchronous `explore` runs the steps back
/// to back, the `async` one lets other main-actor work run between them.
@MainActor
protocol ScheduleSearch {
  /// Runs the strategy's next schedule on `runner`, or ends the search.
  mutating func step(_ runner: ScheduleRunner) -> SearchStep
}

/// Where a search stands after a step.
enum SearchStep {
  /// It ran a schedule that did not fail, and has more to run.
  case searching
  /// Schedule `number` failed: the search is over, and the failure is to be reduced and told.
  case found(ScheduleRun, number: Int)
  /// It ran every schedule it was asked for, none failing.
  case finished(ExplorationReport)
}
