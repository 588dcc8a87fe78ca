#if !(canImport(Darwin) || canImport(Glibc) || canImport(Musl))
  import Synchronization

  /// The mutex under ``Locked`` where there are no pthreads: the standard library's `Mutex`,
  /// taken and released around a body rather than through its closure, whose `sending`
  /// signature a lock of any state cannot meet.
  @usableFromInline
  struct RawMutex {
    @usableFromInline let mutex: UnsafeMutablePointer<Mutex<Void>>

    /// A new, unlocked mutex.
    @usableFromInline
    init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: Mutex(()))
    }

    @inlinable func lock() { mutex.pointee._unsafeLock() }

    @inlinable func unlock() { mutex.pointee._unsafeUnlock() }

    /// Frees the mutex, which must be unlocked; it is not used again.
    @usableFromInline
    func destroy() {
      mutex.deinitialize(count: 1)
      mutex.deallocate()
    }
  }

  /// The lock under ``ReadWriteLocked`` where there are no pthreads: one mutex, so readers
  /// take turns too. Correct, only less parallel.
  @usableFromInline
  struct RawReadWriteLock {
    @usableFromInline let mutex = RawMutex()

    /// A new, unlocked lock.
    @usableFromInline
    init() {}

    @inlinable func lockShared() { mutex.lock() }

    @inlinable func lockAlone() { mutex.lock() }

    @inlinable func unlock() { mutex.unlock() }

    /// Frees the lock, which must be unlocked; it is not used again.
    @usableFromInline
    func destroy() { mutex.destroy() }
  }
#endif
