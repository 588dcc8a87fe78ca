#if !canImport(Dispatch)
  /// Without Dispatch, blocking work runs in a detached task of the pool. It serves the wait
  /// for a child process, which such a platform does not start (see ``ChildSpawn``), and the
  /// narration of a failure's steps, which then holds a thread of the pool while it lasts.
  enum ThreadOfItsOwn {
    /// `work`'s result, computed off the caller's actor.
    static func run<R: Sendable>(_ work: @escaping @Sendable () -> R) async -> R {
      await Task.detached { work() }.value
    }
  }
#endif
