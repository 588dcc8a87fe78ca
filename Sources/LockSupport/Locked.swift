#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value behind a pthread mutex: the lock of every shared state in the package.
///
/// `Synchronization.Mutex` would serve, but ThreadSanitizer on Linux cannot see it: it locks
/// a futex inside the uninstrumented standard library, so every access it protects reads as a
/// race and no suppression by name hides the report. ThreadSanitizer intercepts
/// `pthread_mutex_lock`, so state behind this lock is checked for real races only, in this
/// package's tests and in an adopter's.
///
/// It is `Sendable` when its state is: the lock makes sharing the state safe, not sending it.
///
/// Public, though this module is no product: Swift emits an `@inlinable` body into the modules
/// that call it only for a public declaration, and a `package` one was called unspecialized,
/// through generic metadata, on every lock (7 % of an exploration's time).
public final class Locked<State> {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  // The mutex is what keeps accesses apart; a dynamic exclusivity check on every lock would
  // only repeat it, at a cost an exploration pays at every step.
  @exclusivity(unchecked) @usableFromInline var state: State

  /// A lock around `state`.
  public init(_ state: State) {
    // `malloc` and `free` rather than a typed pointer's generic allocate and initialize:
    // tests make several of these each, in a debug build that calls those unspecialized.
    // `pthread_mutex_init` initializes the memory.
    mutex = malloc(MemoryLayout<pthread_mutex_t>.stride)!
      .assumingMemoryBound(to: pthread_mutex_t.self)
    PthreadResult.check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
    self.state = state
  }

  deinit {
    PthreadResult.check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
    free(mutex)
  }

  /// Runs `body` with the state, holding the lock; `body` must not take the lock again.
  /// Inlinable, so a call from another module is specialized rather than generic.
  @inlinable
  public func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    PthreadResult.check(pthread_mutex_lock(mutex), "pthread_mutex_lock")
    defer { PthreadResult.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }
    return try body(&state)
  }
}

extension Locked: @unchecked Sendable where State: Sendable {}
