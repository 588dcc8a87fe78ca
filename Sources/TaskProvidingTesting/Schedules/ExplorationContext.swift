/// What the schedules of one exploration share: the scenario's setup, made afresh for each;
/// how long one waits for work outside its scope, and what earlier ones learned of such
/// work; the watchdog; where a child process writes its progress; and how many have begun.
/// Each schedule is run by a ``ScheduleUnderWay`` made from it.
@MainActor
struct ExplorationContext {
  let makeSetup: @MainActor () -> ScheduleSetup
  /// How long a schedule with nothing to choose, but something unfinished, waits in real time
  /// for a job from outside the scope before it counts as stuck. `nil`: only when something
  /// outside may still bring one (see ``ScheduleUnderWay``), then ``ScheduleLimits/defaultOutsideWait``.
  let outsideWait: Duration?
  /// Whether any schedule so far heard from a thread outside its scope.
  let outside = OutsideEvidence()
  /// Ends the run with a report if a job never returns.
  let watchdog: JobWatchdog?
  /// The strategy, for the watchdog's report.
  let strategy: String
  /// Where a child process exploring for the test process writes how far it got.
  var progress: ExplorationProgress?
  /// How many schedules have begun, counted by each as it begins.
  let begun = BegunSchedules()

  /// A count the schedules of one exploration share.
  final class BegunSchedules {
    var count = 0
  }

  /// What the schedules of one exploration learned about work outside their scopes.
  final class OutsideEvidence {
    /// A job came from a thread outside a scope.
    var heard = false
    /// A schedule has already waited once for outside work it had no sign of.
    var probed = false
    /// Tasks whose jobs ran without the scope's task executor as their preference, as a
    /// report names them, first seen first: a hop of theirs from an actor to an idle actor
    /// or to the pool may have run inline, with no job, and so with no choice.
    var unpreferred: [String] = []
    /// The most such tasks one schedule met, named or not.
    var unpreferredCount = 0

    /// Whether an actor's turn ran where task creation cannot be watched, and the names of
    /// the first few such actors.
    var ranUnwatchedActorTurn = false
    var unwatchedActors: [String] = []

    /// Notes the actors whose turns one schedule ran where task creation cannot be watched.
    func noteUnwatchedActorTurns(_ turns: (ran: Bool, actors: [String])) {
      guard turns.ran else { return }
      ranUnwatchedActorTurn = true
      for name in turns.actors where !unwatchedActors.contains(name) && unwatchedActors.count < 3 {
        unwatchedActors.append(name)
      }
    }

    /// Notes the tasks one schedule ran without the scope's preference.
    func noteUnpreferred(_ names: [String?]) {
      guard !names.isEmpty else { return }
      unpreferredCount = max(unpreferredCount, names.count)
      for case let name? in names where !unpreferred.contains(name) && unpreferred.count < 5 {
        unpreferred.append(name)
      }
    }
  }

  /// A job that did not return, as the watchdog reports it: the task it runs with where
  /// that task resumed, and the replay string of the schedule up to it.
  nonisolated static func describe(_ job: ReadyJob, after trail: [ScheduleRun.Taken]) -> String {
    "\(JobWatchdog.describe(job)), in a schedule that replays as "
      + "\"\(ReplayString.encode(ScheduleRun(decisions: trail).departures))\" up to it"
  }
}
