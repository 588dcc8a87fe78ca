#if !os(Linux) || TP_NO_CHILD_PROCESS
  /// Where no child process starts (see ``ChildSpawn``), no folder is made for one.
  struct TemporaryFolder {
    let path: String

    /// Always `nil`: there are no files here.
    init?() { return nil }

    /// Never called: no folder is made.
    func remove() {}
  }
#endif
