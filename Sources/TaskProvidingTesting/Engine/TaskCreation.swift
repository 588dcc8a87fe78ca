import CTaskCreation
import LockSupport
import TaskProviding

/// Gives every task a scope's code creates the scope's task executor as its preference, where
/// task creation can be noted (Linux: see `Modules/CTaskCreation`).
///
/// A task created by a scope's job or work, with `Task { }` or `Task.detached { }` and no
/// preference of its own, prefers ``ScopePoolExecutor``: the runtime then enqueues it at every
/// hop that changes executor, where it would otherwise switch inline to an idle actor, so the
/// scope sees each such hop as a job. Child tasks inherit the preference of their parent, as
/// always. A task created anywhere else is created as the runtime would create it.
package enum TaskCreation {
  /// Whether tasks created by a scope's code get the scope's preference here.
  /// A build that sets `TP_NO_TASK_CREATION_HOOK` takes the path of the platforms where task
  /// creation cannot be noted, on Linux too.
  package static let isWatched: Bool = {
    #if TP_NO_TASK_CREATION_HOOK
      return false
    #else
      guard ctaskcreation_is_available() != 0 else { return false }
      ctaskcreation_set_chooser { executor in
        guard JobRouter.shared.ownsCurrentContext() else { return 0 }
        executor.pointee = CTaskCreationExecutor(
          identity: ScopePoolExecutor.unowned.0, implementation: ScopePoolExecutor.unowned.1)
        return 1
      }
      return true
    #endif
  }()

  /// The names given to tasks a scope's code created while a schedule was being narrated, by
  /// address: a task's name can be read only while it runs, and a task that hops from actor
  /// to actor is never seen running by the scope's hooks.
  private static let noted = Locked<(narrators: Int, names: [UInt: String])>((0, [:]))

  /// Starts noting the names of the tasks scopes' code creates, until ``stopNotingNames(of:)``.
  static func startNotingNames() {
    guard isWatched else { return }
    let first = noted.withLock { noted in
      noted.narrators += 1
      return noted.narrators == 1
    }
    guard first else { return }
    ctaskcreation_set_observer { task, name in
      guard JobRouter.shared.ownsCurrentContext() else { return }
      let address = UInt(bitPattern: task)
      // A task with no name may take a freed one's address: it forgets that one's name.
      let name = name.map { String(cString: $0) }
      TaskCreation.noted.withLock { $0.names[address] = name }
    }
  }

  /// The name a task created by a scope's code was given, if it was noted.
  static func name(ofTask address: UInt) -> String? {
    noted.withLock { $0.names[address] }
  }

  /// Stops noting names for one narrator, forgetting those of `tasks`.
  static func stopNotingNames(of tasks: [UInt]) {
    guard isWatched else { return }
    noted.withLock { noted in
      for task in tasks { noted.names[task] = nil }
      noted.narrators -= 1
      if noted.narrators == 0 {
        ctaskcreation_set_observer(nil)
        noted.names = [:]
      }
    }
  }

  static func scopeOpened() {
    guard isWatched else { return }
    ctaskcreation_scope_opened()
  }

  static func scopeClosed() {
    guard isWatched else { return }
    ctaskcreation_scope_closed()
  }
}
