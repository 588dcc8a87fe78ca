// Repeated on purpose (docs/architecture.md): each lock wraps its own pthread primitive in the same
// shape.

/// A value behind a read-write lock: many readers at once, one writer alone (a pthread
/// read-write lock; one mutex where there are no pthreads).
///
/// For state read far more often than it changes, such as what the scheduler's router looks
/// up for every job in the process: readers never wait for each other, and ThreadSanitizer
/// sees the lock. Public and inlinable for the reason ``Locked`` is.
public final class ReadWriteLocked<State> {
  @usableFromInline let lock: RawReadWriteLock
  // The lock is what keeps writers apart from everyone; a dynamic exclusivity check on every
  // access would only repeat it.
  @exclusivity(unchecked) @usableFromInline var state: State

  /// A read-write lock around `state`.
  public init(_ state: State) {
    lock = RawReadWriteLock()
    self.state = state
  }

  deinit {
    lock.destroy()
  }

  /// Runs `body` with the state, sharing the lock with other readers.
  @inlinable public func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
    lock.lockShared()
    defer { lock.unlock() }
    return try body(state)
  }

  /// Runs `body` with the state, alone.
  @inlinable public func write<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lockAlone()
    defer { lock.unlock() }
    return try body(&state)
  }
}

extension ReadWriteLocked: @unchecked Sendable where State: Sendable {}
