#if !canImport(Dispatch)
  /// Without Dispatch, blocking work runs in a detached task of the pool. It serves only the
  /// wait for a child process, which such a platform does not start (see ``ChildSpawn``).
  enum ThreadOfItsOwn {
    /// `work`'s result, computed off the caller's actor.
    static func run<R: Sendable>(_ work: @escaping @Sendable () -> R) async -> R {
      await Task.detached { work() }.value
    }
  }
#endif
