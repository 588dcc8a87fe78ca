#if !canImport(Dispatch)
  /// Without Dispatch there is no way to put a thread to sleep in portable Swift. A scope's
  /// driver sleeps only inside a scope, and a scope opens only with the runtime hooks, which
  /// such a platform does not give the toolkit (see ``loadedSymbol(_:)``): the synchronous
  /// serial scheduler reports itself unavailable before it could get here.
  final class DriverSemaphore: Sendable {
    /// A semaphore no one has signalled.
    init() {}

    /// Nothing sleeps here to be woken.
    func signal() {}

    /// Never reached: see the type's comment.
    func wait(nanoseconds: Int) -> Bool {
      preconditionFailure("a scope's driver slept where there is no Dispatch to wake it")
    }
  }
#endif
