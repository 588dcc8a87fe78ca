#if !(canImport(Darwin) || canImport(Glibc) || canImport(Musl))
  /// Where no C library offers files, no folder can be made: an exploration that would run
  /// in a child process says so and runs in the test's own process.
  struct TemporaryFolder {
    let path: String

    /// Always `nil`: there are no files here.
    init?() { return nil }

    /// Never called: no folder is made.
    func remove() {}
  }
#endif
