#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// A pointer that each thread keeps for itself (a pthread key).
  struct ThreadLocalSlot: @unchecked Sendable {
    private let key: pthread_key_t

    /// A new slot, empty on every thread; it lasts as long as the process.
    init() {
      var key = pthread_key_t()
      PthreadKeyResult.check(pthread_key_create(&key, nil))
      self.key = key
    }

    /// The calling thread's pointer.
    var value: UnsafeMutableRawPointer? {
      get { pthread_getspecific(key) }
      nonmutating set { _ = pthread_setspecific(key, newValue) }
    }
  }

  private enum PthreadKeyResult {
    static func check(_ code: Int32) {
      precondition(code == 0, "pthread_key_create failed with error \(code)")
    }
  }
#endif
