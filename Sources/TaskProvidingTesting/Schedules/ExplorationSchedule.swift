import LockSupport
import TaskProviding

#if SwiftDependencies
  import Dependencies
#endif

/// One schedule of a scenario, set up for the explorer: a fresh provider, test scope and
/// clock, and the choices they offer (open calls to complete, the clock to move) beside the
/// scenario's actions.
@MainActor
enum ExplorationSchedule {
  /// `installs`: the scenario's task runs with the exploration's provider as the current
  /// provider scope and as the task's dependencies, with its clock; otherwise with the caller's
  /// own, as a test explored as written does.
  static func setup(
    _ scenario: @escaping @MainActor (Exploration) async throws -> Void, installs: Bool = true
  ) -> ScheduleSetup {
    // It holds no task: a task's start is a job of the schedule, ordered as the runtime
    // orders it. Two tasks spawned on the main actor start in spawn order, in turn with its
    // other jobs; two spawned on the pool, in either order.
    let provider = ExplorationTaskProvider()
    let scope = ProviderScope(provider: provider)
    let exploration = Exploration(provider: provider)
    let outcome = Locked<(returned: Bool, thrown: String?)>((false, nil))
    let body = Locked<Task<Void, Never>?>(nil)
    var setup = ScheduleSetup(
      start: {
        let start = {
          ScopeTaskPreference.mainActorTask {
            do {
              try await scenario(exploration)
              return nil
            } catch {
              return "\(error)"
            }
          } then: { (thrown: String?) in
            outcome.withLock { $0 = (true, thrown) }
          }
        }
        let task =
          installs
          ? ProviderScope.$current.withValue(scope) { installingDependencies(exploration, start) }
          : start()
        body.withLock { $0 = task }
      },
      hasReturned: { outcome.withLock { $0.returned } },
      thrown: { outcome.withLock { $0.thrown } },
      brokenInvariant: { firstBroken(exploration.invariants) },
      brokenFinalCheck: { firstBroken(exploration.finalChecks) },
      choices: { choices(provider: provider, scope: scope, exploration: exploration) },
      pendingWork: { provider.pendingRecords.map(\.description) },
      cleanUp: {
        body.withLock { $0?.cancel() }
        scope.endOpenCalls()
        provider.cancelAll()
        exploration.clock.cancelAll()
      },
      taskLabel: { address in
        provider.record(forTaskAt: address).map { record in
          "task #\(record.index)" + (record.name.map { " '\($0)'" } ?? "")
        }
      }
    )
    setup.awaitedInvariants = { exploration.awaitedInvariants }
    setup.awaitedFinalChecks = { exploration.awaitedFinalChecks }
    return setup
  }

  /// The scenario's options at a step: the next action, then every open call's outcomes,
  /// oldest first, so a schedule's options mean the same thing in every run; and the clock,
  /// which a schedule offers only once no job is ready.
  private static func choices(
    provider: ExplorationTaskProvider, scope: ProviderScope, exploration: Exploration
  ) -> [ScheduleChoice] {
    var choices: [ScheduleChoice] = []
    if exploration.nextAction < exploration.actions.count {
      let next = exploration.nextAction
      let action = exploration.actions[next]
      choices.append(
        ScheduleChoice(
          kind: .action, key: .action(next), label: action.name,
          apply: {
            exploration.nextAction += 1
            // In the scenario's scope, so what the action spawns inherits it: the calls its
            // tasks make are then the exploration's to complete.
            ProviderScope.$current.withValue(scope) {
              installingDependencies(exploration) { action.perform() }
            }
          }))
    }
    for call in scope.open {
      for completion in call.completions {
        choices.append(
          ScheduleChoice(
            kind: .complete, key: .call(call.sequence), label: completion.label,
            wakes: call.caller, apply: completion.apply))
      }
    }
    // An answer or the next action may come before or after a move of the clock.
    if let wake = exploration.clock.nextWake {
      let clock = exploration.clock
      choices.append(
        ScheduleChoice(
          kind: .time, key: .clock,
          label: "advance the clock to \(wake.deadline), ending "
            + (wake.sleepers == 1 ? "1 sleep" : "\(wake.sleepers) sleeps"),
          apply: { clock.advance(to: wake.deadline) }))
    }
    return choices
  }

  /// The name of the first of `checks` that does not hold. A loop, not `first(where:)`: its
  /// closure, formed in main-actor code, would check its isolation at run time on each call,
  /// and invariants are checked at every step of every schedule.
  private static func firstBroken(
    _ checks: [(name: String, holds: @MainActor () -> Bool)]
  ) -> String? {
    for check in checks where !check.holds() { return check.name }
    return nil
  }

  /// Runs `body` with the exploration's provider and clock as the task's dependencies.
  static func installingDependencies<R>(_ exploration: Exploration, _ body: () -> R) -> R {
    #if SwiftDependencies
      let values = withDependencies {
        $0.taskProvider = exploration.provider
        $0.continuousClock = exploration.clock
        $0.suspendingClock = exploration.clock
      } operation: {
        DependencyValues._current
      }
      return DependencyValues.$_current.withValue(values, operation: body)
    #else
      return body()
    #endif
  }
}
