// Repeated on purpose (docs/architecture.md): each lock wraps its own pthread primitive in the same
// shape.

#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// The mutex under ``Locked``: a pthread mutex, which ThreadSanitizer sees.
  @usableFromInline
  struct RawMutex {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A new, unlocked mutex.
    @usableFromInline
    init() {
      // `malloc` and `free`: `pthread_mutex_init` initializes the memory, so a typed
      // pointer's initialization would have nothing to do.
      mutex = malloc(MemoryLayout<pthread_mutex_t>.stride)!
        .assumingMemoryBound(to: pthread_mutex_t.self)
      PthreadResult.check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
    }

    @inlinable func lock() {
      PthreadResult.check(pthread_mutex_lock(mutex), "pthread_mutex_lock")
    }

    @inlinable func unlock() {
      PthreadResult.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
    }

    /// Frees the mutex, which must be unlocked; it is not used again.
    @usableFromInline
    func destroy() {
      PthreadResult.check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
      free(mutex)
    }
  }

  /// The lock under ``ReadWriteLocked``: a pthread read-write lock.
  @usableFromInline
  struct RawReadWriteLock {
    @usableFromInline let lock: UnsafeMutablePointer<pthread_rwlock_t>

    /// A new, unlocked lock.
    @usableFromInline
    init() {
      lock = .allocate(capacity: 1)
      lock.initialize(to: pthread_rwlock_t())
      PthreadResult.check(pthread_rwlock_init(lock, nil), "pthread_rwlock_init")
    }

    @inlinable func lockShared() {
      PthreadResult.check(pthread_rwlock_rdlock(lock), "pthread_rwlock_rdlock")
    }

    @inlinable func lockAlone() {
      PthreadResult.check(pthread_rwlock_wrlock(lock), "pthread_rwlock_wrlock")
    }

    @inlinable func unlock() {
      PthreadResult.check(pthread_rwlock_unlock(lock), "pthread_rwlock_unlock")
    }

    /// Frees the lock, which must be unlocked; it is not used again.
    @usableFromInline
    func destroy() {
      PthreadResult.check(pthread_rwlock_destroy(lock), "pthread_rwlock_destroy")
      lock.deinitialize(count: 1)
      lock.deallocate()
    }
  }
#endif
