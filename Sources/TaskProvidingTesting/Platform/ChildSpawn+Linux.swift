#if os(Linux) && !TP_NO_CHILD_PROCESS
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// Starting the test binary again and waiting for it, on Linux: `posix_spawn` of
  /// `/proc/self/exe`.
  package enum ChildSpawn {
    /// Children can be started here.
    package static let isAvailable = true

    /// Processors online, which bounds how many children explore at once.
    static let processors = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)

    /// Why children cannot be started, where they cannot.
    static let unavailable = ""

    /// Starts the test binary with `arguments` and this process's environment, changed by
    /// `environment`; its standard input and output are `/dev/null` and its standard error is
    /// the file at `standardError`. Waits for it to end.
    static func run(
      arguments: [String], environment: [String: String], standardError: String
    ) -> ChildProcess.Ending {
      var executable = [CChar](repeating: 0, count: 4096)
      let length = readlink("/proc/self/exe", &executable, executable.count - 1)
      guard length > 0 else { return .notStarted("the test binary's path could not be read") }
      let path = String(
        decoding: executable[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      var variables: [String] = []
      var slot = environ
      while let entry = slot.pointee {
        variables.append(String(cString: entry))
        slot += 1
      }
      let argv = ([path] + arguments).map { strdup($0) } + [nil]
      let envp = ChildSpawn.merged(variables, with: environment).map { strdup($0) } + [nil]
      defer {
        for pointer in argv + envp { free(pointer) }
      }

      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(
        &actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      // Another test's pipe left open in the child would keep that test from seeing its end.
      // (glibc 2.34 and later; not in the module's headers.)
      if let closeFrom = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
      {
        typealias CloseFrom =
          @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&actions, 3)
      }
      var pid = pid_t()
      let started = posix_spawn(&pid, path, &actions, nil, argv, envp)
      guard started == 0 else {
        return .notStarted("the test binary could not be started again (error \(started))")
      }
      return waitForChild(pid)
    }
  }
#endif
