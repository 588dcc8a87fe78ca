#if os(Linux) && !TP_NO_CHILD_PROCESS
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// Waits for the child `pid` to end, and says how it ended.
  func waitForChild(_ pid: pid_t) -> ChildProcess.Ending {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return .notStarted("the child could not be waited for") }
    }
    return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
  }

  /// The name of signal `number`, for a child's death.
  func signalName(_ number: Int32) -> String? {
    let names: [Int32: String] = [
      SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV",
      SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
    ]
    return names[number]
  }

  /// Ends this process at once with `code`, running no exit handlers: a child that has said
  /// all it had to.
  func exitChild(_ code: Int32) -> Never { _exit(code) }
#endif
