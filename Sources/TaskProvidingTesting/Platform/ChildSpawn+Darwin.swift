#if os(macOS)
  import Darwin

  /// Starting the test binary again and waiting for it, on macOS: `posix_spawn` of the path
  /// `_NSGetExecutablePath` gives, with the environment `_NSGetEnviron` gives (`crt_externs.h`;
  /// a program's `environ` is not visible to a library there). `POSIX_SPAWN_CLOEXEC_DEFAULT`
  /// closes in the child every descriptor the file actions do not name. Written from
  /// `spawn.h`, `crt_externs.h` and `mach-o/dyld.h`; not yet built.
  enum ChildSpawn {
    /// Children can be started here.
    static let isAvailable = true

    /// Processors online, which bounds how many children explore at once.
    static let processors = max(Int(sysconf(_SC_NPROCESSORS_ONLN)), 1)

    /// Why children cannot be started, where they cannot.
    static let unavailable = ""

    /// Starts the test binary with `arguments` and this process's environment, changed by
    /// `environment`; its standard input and output are `/dev/null` and its standard error is
    /// the file at `standardError`. Waits for it to end.
    static func run(
      arguments: [String], environment: [String: String], standardError: String
    ) -> ChildProcess.Ending {
      var size = UInt32(4096)
      var executable = [CChar](repeating: 0, count: Int(size))
      if _NSGetExecutablePath(&executable, &size) != 0 {
        executable = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&executable, &size) == 0 else {
          return .notStarted("the test binary's path could not be read")
        }
      }
      let path = String(cString: executable)
      var variables: [String] = []
      if let environment = _NSGetEnviron()?.pointee {
        var slot = environment
        while let entry = slot.pointee {
          variables.append(String(cString: entry))
          slot += 1
        }
      }
      let argv = ([path] + arguments).map { strdup($0) } + [nil]
      let envp = ChildSpawn.merged(variables, with: environment).map { strdup($0) } + [nil]
      defer {
        for pointer in argv + envp { free(pointer) }
      }

      var actions: posix_spawn_file_actions_t?
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(
        &actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      var attributes: posix_spawnattr_t?
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
      var pid = pid_t()
      let started = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
      guard started == 0 else {
        return .notStarted("the test binary could not be started again (error \(started))")
      }
      return waitForChild(pid)
    }
  }
#endif
