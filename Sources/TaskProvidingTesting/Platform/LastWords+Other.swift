#if !(canImport(Darwin) || canImport(Glibc) || canImport(Musl))
  /// Where signals cannot be handled, a trapping child says nothing as it dies; no child
  /// starts on such a platform anyway (see ``ChildSpawn``).
  enum LastWords {
    /// Does nothing: the trap is reported without its steps.
    static func install(_ words: @escaping () -> Void) {}
  }
#endif
