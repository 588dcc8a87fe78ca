#if !(canImport(Darwin) || canImport(Glibc) || canImport(Musl))
  import LockSupport

  /// Where threads keep nothing of their own, one pointer for the whole process. It serves
  /// the scopes' driver context, and a scope opens only with the runtime hooks, which such a
  /// platform does not give the toolkit (see ``loadedSymbol(_:)``).
  struct ThreadLocalSlot: @unchecked Sendable {
    private let shared = Locked<UnsafeMutableRawPointer?>(nil)

    /// A new, empty slot.
    init() {}

    /// The process's pointer.
    var value: UnsafeMutableRawPointer? {
      get { shared.withLock { $0 } }
      nonmutating set { shared.withLock { $0 = newValue } }
    }
  }
#endif
