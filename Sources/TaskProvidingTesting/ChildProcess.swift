#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One child of the test binary, started to run one exploration of one test, and what it left:
/// the lines it wrote as it went, its standard error and how it ended.
struct ChildProcess {
  /// How the child ended.
  enum Ending: Equatable {
    case exited(Int32)
    case signaled(Int32)
    case notStarted(String)
  }

  /// Why a child died in the middle of a schedule.
  struct Death {
    /// The failure's reason, as a report gives it.
    let reason: String
    /// What the trap said, without addresses, to tell whether another schedule traps the same
    /// way; `nil` if the child ended otherwise than by a trap.
    let trap: String?
    /// The toolkit's watchdog ended it: a job never returned.
    let isWatchdog: Bool
  }

  let lines: [String]
  let standardError: String
  let ending: Ending

  /// Whether the child reached the call it was started for.
  var reachedCall: Bool { !lines.isEmpty }

  /// The text after the last line that starts with `tag` and a space.
  func value(of tag: String) -> String? {
    for line in lines.reversed() {
      if line == tag { return "" }
      if line.hasPrefix(tag + " ") { return String(line.dropFirst(tag.count + 1)) }
    }
    return nil
  }

  /// The departures of the last schedule that began after the line `marker` (or at all).
  func departuresOfLastSchedule(after marker: String?) -> [ReplayString.Departure] {
    var lines = self.lines[...]
    if let marker, let index = lines.lastIndex(of: marker) { lines = lines[(index + 1)...] }
    guard let start = lines.lastIndex(of: "S") else { return [] }
    return lines[(start + 1)...].compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count == 3, fields[0] == "D", let decision = Int(fields[1]),
        let option = Int(fields[2])
      else { return nil }
      return ReplayString.Departure(decision: decision, option: option)
    }
  }

  var death: Death {
    let said = standardError.split(separator: "\n").map {
      $0.trimmingPrefix(while: \.isWhitespace)
    }
    if let watchdog = said.first(where: { $0.contains("did not return within") }),
      let start = watchdog.range(of: "A job of")
    {
      // The report, less its ending: the run goes on, only the child ended.
      var report = watchdog[start.lowerBound...]
      if let end = report.range(of: ". The thread that drives it") {
        report = report[..<end.lowerBound]
      }
      return Death(
        reason: report + "; the child process exploring for the test was ended there",
        trap: nil, isWatchdog: true)
    }
    // The runtime's own line, `File.swift:12: Fatal error: …`, the last one printed.
    let marks = [": Fatal error", ": Precondition failed", ": Assertion failed", "Fatal error: "]
    if let message = said.last(where: { line in
      marks.contains { line.contains($0) } && !line.hasPrefix("↳")
        && !line.contains("Exploration (")
    }) {
      return Death(
        reason: "the schedule trapped: \(message)", trap: Self.withoutAddresses(String(message)),
        isWatchdog: false)
    }
    switch ending {
    case .signaled(let number):
      let name = Self.signalNames[number].map { " (\($0))" } ?? ""
      return Death(
        reason: "the schedule ended the process with signal \(number)\(name)",
        trap: "signal \(number)", isWatchdog: false)
    case .exited(let code):
      let last = said.last(where: { !$0.isEmpty }).map { ": \($0)" } ?? ""
      return Death(
        reason: "the schedule ended the process with exit code \(code)\(last)", trap: nil,
        isWatchdog: false)
    case .notStarted(let why):
      return Death(reason: why, trap: nil, isWatchdog: false)
    }
  }

  private static let signalNames: [Int32: String] = [
    SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV",
    SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
  ]

  private static func withoutAddresses(_ line: String) -> String {
    var kept = ""
    var rest = line[...]
    while let range = rest.range(of: "0x") {
      kept += rest[..<range.lowerBound]
      rest = rest[range.upperBound...].drop(while: \.isHexDigit)
    }
    return kept + rest
  }
}

extension ChildProcess {
  /// Starts the test binary with `call`'s arguments, which run its test alone, to run that
  /// call in `mode` (`explore`, `reduce` from candidate `start` of `schedule`, or `tell`
  /// `schedule`), and waits for it.
  static func run(
    _ call: ChildCall, mode: String, schedule: [ReplayString.Departure] = [], start: Int = 0
  ) -> ChildProcess {
    #if os(Linux)
      guard let directory = TemporaryFolder() else {
        return ChildProcess(
          lines: [], standardError: "", ending: .notStarted("no temporary folder could be made"))
      }
      defer { directory.remove() }
      let request = directory.path + "/request"
      let output = directory.path + "/output"
      let standardError = directory.path + "/stderr"
      let text =
        [
          output, call.test, call.site, "\(call.occurrence)", mode,
          ReplayString.encode(schedule), "\(start)",
        ] + call.earlier
      guard write(text.joined(separator: "\n") + "\n", to: request) else {
        return ChildProcess(
          lines: [], standardError: "",
          ending: .notStarted("the child's request could not be written"))
      }
      let ending = spawnAndWait(
        arguments: call.arguments,
        environment: [
          ChildRequest.variable: request,
          // The runtime's backtracer would spend seconds on a trap we only need the message of.
          "SWIFT_BACKTRACE": "enable=no",
        ],
        standardError: standardError)
      return ChildProcess(
        lines: read(output).split(separator: "\n").map(String.init),
        standardError: read(standardError), ending: ending)
    #else
      return ChildProcess(
        lines: [], standardError: "", ending: .notStarted("exploring in a child needs Linux"))
    #endif
  }

  private static func spawnAndWait(
    arguments: [String], environment: [String: String], standardError: String
  ) -> Ending {
    var executable = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &executable, executable.count - 1)
    guard length > 0 else { return .notStarted("the test binary's path could not be read") }
    let path = String(decoding: executable[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var variables: [String] = []
    var slot = environ
    while let entry = slot.pointee {
      let variable = String(cString: entry)
      let name = variable.prefix { $0 != "=" }
      if environment[String(name)] == nil { variables.append(variable) }
      slot += 1
    }
    variables += environment.map { "\($0.key)=\($0.value)" }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = variables.map { strdup($0) } + [nil]
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
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return .notStarted("the child could not be waited for") }
    }
    return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
  }

  private static func write(_ text: String, to path: String) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var text = text
    return text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }

  /// The whole file at `path`, or nothing if it cannot be read.
  static func read(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = Glibc.read(descriptor, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// The request a child was started with, read once from the file its environment names.
struct ChildRequest {
  static let variable = "TASK_PROVIDING_EXPLORATION_CHILD"

  let output: String
  let call: ChildCall
  let mode: String
  let schedule: [ReplayString.Departure]
  let start: Int

  static let current: ChildRequest? = {
    guard let path = getenv(variable).map({ String(cString: $0) }) else { return nil }
    let lines = ChildProcess.read(path).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    guard lines.count >= 7, let occurrence = Int(lines[3]), let start = Int(lines[6]),
      case .success(let schedule) = ReplayString.decode(lines[5])
    else { return nil }
    return ChildRequest(
      output: lines[0],
      call: ChildCall(
        test: lines[1], site: lines[2], occurrence: occurrence,
        earlier: lines[7...].filter { !$0.isEmpty }),
      mode: lines[4], schedule: schedule, start: start)
  }()
}
