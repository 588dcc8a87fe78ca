import CTaskCreation

/// Gives every task a scope's code creates the scope's task executor as its preference, where
/// task creation can be watched (Linux: see `Modules/CTaskCreation`).
///
/// A task created by a scope's job or work, with `Task { }` or `Task.detached { }` and no
/// preference of its own, prefers ``ScopePoolExecutor``: the runtime then enqueues it at every
/// hop that changes executor, where it would otherwise switch inline to an idle actor, so the
/// scope sees each such hop as a job. Child tasks inherit the preference of their parent, as
/// always. A task created anywhere else is created as the runtime would create it.
enum TaskCreation {
  /// Whether tasks created by a scope's code get the scope's preference here.
  static let isWatched: Bool = {
    guard ctaskcreation_is_available() != 0 else { return false }
    ctaskcreation_set_chooser { executor in
      guard JobRouter.shared.ownsCurrentContext() else { return 0 }
      executor.pointee = CTaskCreationExecutor(
        identity: ScopePoolExecutor.unowned.0, implementation: ScopePoolExecutor.unowned.1)
      return 1
    }
    return true
  }()

  static func scopeOpened() {
    guard isWatched else { return }
    ctaskcreation_scope_opened()
  }

  static func scopeClosed() {
    guard isWatched else { return }
    ctaskcreation_scope_closed()
  }
}
