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
    /// What the trap said, without addresses, to narrate whether another schedule traps the same
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
      let name = signalName(number).map { " (\($0))" } ?? ""
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
    guard ChildSpawn.isAvailable else {
      return ChildProcess(lines: [], standardError: "", ending: .notStarted(ChildSpawn.unavailable))
    }
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
    let ending = ChildTurns.taking {
      ChildSpawn.run(
        arguments: call.arguments,
        environment: [
          ChildRequest.variable: request,
          // The runtime's backtracer would spend seconds on a trap we only need the message of.
          "SWIFT_BACKTRACE": "enable=no",
        ],
        standardError: standardError)
    }
    return ChildProcess(
      lines: read(output).split(separator: "\n").map(String.init),
      standardError: read(standardError), ending: ending)
  }

  private static func write(_ text: String, to path: String) -> Bool {
    guard let file = OutputFile(path: path, appending: false) else { return false }
    defer { file.close() }
    return file.write(text)
  }

  /// The whole file at `path`, or nothing if it cannot be read.
  static func read(_ path: String) -> String { readWholeFile(path) }
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
    guard let path = environmentValue(variable) else { return nil }
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
