import LockSupport
import Synchronization
import TaskProviding

extension JobRouter {
  /// Whose tasks and actor turns are whose: read for every job in the process while a scope
  /// is open, written when a scope opens, closes or first sees one of its tasks.
  struct Registry {
    /// How many scopes are open (each says so in its `isOpen`).
    var openCount = 0
    var taskOwners: [UInt: (id: UInt64, scope: JobScope)] = [:]
    var actorTurnOwners: [UInt: JobScope] = [:]
    /// The other owner's global hook, put back when the last scope closes: the one found
    /// when the first opened, or the last one that owner wrote since (none if it cleared the
    /// slot), so that its own tests still running keep it.
    var previousGlobal: RuntimeHooks.GlobalHook?
    /// How many times another owner cleared the global hook while a scope was open.
    var clearings = 0
    var previousMain: RuntimeHooks.MainHook?
  }
}
