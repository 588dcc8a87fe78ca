// Repeated on purpose (docs/architecture.md): each lock wraps its own pthread primitive in the same
// shape.

/// A value behind a mutex: the lock of every shared state in the package. A pthread mutex
/// where there are pthreads; the standard library's `Mutex` elsewhere.
///
/// `Synchronization.Mutex` would serve everywhere, but ThreadSanitizer on Linux cannot see it: it locks
/// a futex inside the uninstrumented standard library, so every access it protects reads as a
/// race and no suppression by name hides the report. ThreadSanitizer intercepts
/// `pthread_mutex_lock`, so state behind this lock is checked for real races only, in this
/// package's tests and in an adopter's.
///
/// It is `Sendable` when its state is: the lock makes sharing the state safe, not sending it.
///
/// Public, though this module is no product: Swift emits an `@inlinable` body into the modules
/// that call it only for a public declaration, and a `package` one was called unspecialized,
/// through generic metadata, on every lock.
public final class Locked<State> {
  @usableFromInline let mutex: RawMutex
  // The mutex is what keeps accesses apart; a dynamic exclusivity check on every lock would
  // only repeat it, at a cost an exploration pays at every step.
  @exclusivity(unchecked) @usableFromInline var state: State

  /// A lock around `state`.
  public init(_ state: State) {
    mutex = RawMutex()
    self.state = state
  }

  deinit {
    mutex.destroy()
  }

  /// Runs `body` with the state, holding the lock; `body` must not take the lock again.
  /// Inlinable, so a call from another module is specialized rather than generic.
  @inlinable
  public func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    mutex.lock()
    defer { mutex.unlock() }
    return try body(&state)
  }
}

extension Locked: @unchecked Sendable where State: Sendable {}
