#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value behind a pthread read-write lock: many readers at once, one writer alone.
///
/// What the router looks up for every job in the process (whose tasks are whose) is read far
/// more often than it changes: another test's job takes a read lock, so such jobs never wait
/// for each other, and ThreadSanitizer sees the lock.
final class ReadWriteLocked<State>: @unchecked Sendable {
  private let lock: UnsafeMutablePointer<pthread_rwlock_t>
  private var state: State

  init(_ state: State) {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_rwlock_t())
    pthread_rwlock_init(lock, nil)
    self.state = state
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deinitialize(count: 1)
    lock.deallocate()
  }

  /// Runs `body` with the state, sharing the lock with other readers.
  func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
    pthread_rwlock_rdlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return try body(state)
  }

  /// Runs `body` with the state, alone.
  func write<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_rwlock_wrlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return try body(&state)
  }
}
