#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value behind a pthread read-write lock: many readers at once, one writer alone.
///
/// For state read far more often than it changes, such as what the scheduler's router looks
/// up for every job in the process: readers never wait for each other, and ThreadSanitizer
/// sees the lock. Public and inlinable for the reason ``Locked`` is.
public final class ReadWriteLocked<State> {
  @usableFromInline let lock: UnsafeMutablePointer<pthread_rwlock_t>
  // The lock is what keeps writers apart from everyone; a dynamic exclusivity check on every
  // access would only repeat it.
  @exclusivity(unchecked) @usableFromInline var state: State

  /// A read-write lock around `state`.
  public init(_ state: State) {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_rwlock_t())
    PthreadResult.check(pthread_rwlock_init(lock, nil), "pthread_rwlock_init")
    self.state = state
  }

  deinit {
    PthreadResult.check(pthread_rwlock_destroy(lock), "pthread_rwlock_destroy")
    lock.deinitialize(count: 1)
    lock.deallocate()
  }

  /// Runs `body` with the state, sharing the lock with other readers.
  @inlinable public func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
    PthreadResult.check(pthread_rwlock_rdlock(lock), "pthread_rwlock_rdlock")
    defer { PthreadResult.check(pthread_rwlock_unlock(lock), "pthread_rwlock_unlock") }
    return try body(state)
  }

  /// Runs `body` with the state, alone.
  @inlinable public func write<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    PthreadResult.check(pthread_rwlock_wrlock(lock), "pthread_rwlock_wrlock")
    defer { PthreadResult.check(pthread_rwlock_unlock(lock), "pthread_rwlock_unlock") }
    return try body(&state)
  }
}

extension ReadWriteLocked: @unchecked Sendable where State: Sendable {}
