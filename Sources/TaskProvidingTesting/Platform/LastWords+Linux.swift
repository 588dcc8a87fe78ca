// Only a child process, and the test process that starts it, use this: Linux alone.
#if os(Linux) && !TP_NO_CHILD_PROCESS
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// What a child process that narrates a trapping schedule says as it dies: the steps so far.
  ///
  /// A trap cannot be survived, but the signal it raises can be handled once on the way out.
  /// The handler runs ordinary code, which a signal handler should not; the process is a
  /// disposable child, and if the handler fails in turn the test process reports the trap
  /// without its steps.
  enum LastWords {
    private nonisolated(unsafe) static var words: (() -> Void)?

    /// Says `words` when the process traps or crashes, then dies of the same signal.
    static func install(_ words: @escaping () -> Void) {
      Self.words = words
      for number in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
        _ = signal(number, handler)
      }
    }

    private static let handler: @convention(c) (Int32) -> Void = { number in
      let words = LastWords.words
      LastWords.words = nil
      words?()
      _ = signal(number, SIG_DFL)
      _ = raise(number)
    }
  }
#endif
