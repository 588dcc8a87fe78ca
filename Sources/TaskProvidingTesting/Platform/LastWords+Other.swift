#if !os(Linux) || TP_NO_CHILD_PROCESS
  /// Where no child process starts (see ``ChildSpawn``), there is no trapping child to say
  /// anything as it dies.
  enum LastWords {
    /// Does nothing: the trap is reported without its steps.
    static func install(_ words: @escaping () -> Void) {}
  }
#endif
