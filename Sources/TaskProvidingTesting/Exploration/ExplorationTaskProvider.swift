import TaskProviding

/// The provider of one schedule of an exploration, ``Exploration/provider``: it records every
/// task the scenario spawns through it, and holds none.
///
/// Each task starts as the runtime would start it, its start a job the explorer orders among
/// the others: two tasks spawned on the main actor start in the order they were spawned, in
/// turn with the main actor's other jobs; two spawned on the pool (`detachedTask`, or from
/// `nonisolated` code) start in either order. No test steps them, so it has no `runNext()`:
/// the explorer's choices are the steps.
///
/// Pass it wherever an `any TaskProvider` is wanted. With swift-dependencies it is also
/// `@Dependency(\.taskProvider)` in the scenario. Its ``TestTaskProvider/records`` are the
/// schedule's tasks, in spawn order.
public final class ExplorationTaskProvider: TestTaskProvider, @unchecked Sendable {
  init() {
    super.init(base: LiveTaskProvider(), holdsTasks: false)
  }

  /// The record of the task spawned here whose handle has this address, as the runtime
  /// knows the task, if there is one.
  func record(forTaskAt address: UInt) -> TaskRecord? {
    ledger.index(ofTaskAt: address).map(ledger.record)
  }
}
