/// One child of the test binary, started to run one exploration of one test, and what it left:
/// the messages it wrote as it went, its standard error and how it ended.
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

  let messages: [ChildMessage]
  let standardError: String
  let ending: Ending

  /// Whether the child reached the call it was started for.
  var reachedCall: Bool { !messages.isEmpty }

  /// The report the child wrote, if its exploration ended with nothing ending the child.
  var report: ReportPayload? {
    for case .report(let report) in messages.reversed() { return report }
    return nil
  }

  /// The steps the child narrated, if it narrated any.
  var steps: [String]? {
    for case .steps(let steps) in messages.reversed() { return steps }
    return nil
  }

  /// How many schedules began.
  var schedules: Int { messages.count { $0 == .scheduleBegins } }

  /// The candidates of a shrinking that began, in order.
  var candidates: [Int] {
    messages.compactMap { if case .candidateBegins(let index) = $0 { index } else { nil } }
  }

  /// The departures of the last schedule that began after candidate `candidate` began (or at
  /// all).
  func departuresOfLastSchedule(afterCandidate candidate: Int? = nil) -> [ReplayString.Departure] {
    var messages = self.messages[...]
    if let candidate, let index = messages.lastIndex(of: .candidateBegins(index: candidate)) {
      messages = messages[(index + 1)...]
    }
    guard let start = messages.lastIndex(of: .scheduleBegins) else { return [] }
    return messages[(start + 1)...].compactMap {
      if case .departed(let decision, let option) = $0 {
        ReplayString.Departure(decision: decision, option: option)
      } else {
        nil
      }
    }
  }

  var death: Death {
    for case .jobNeverReturned(let account) in messages {
      // The run goes on: only the child ended.
      return Death(
        reason: account + "; the child process exploring for the test was ended there",
        trap: nil, isWatchdog: true)
    }
    let said = standardError.split(separator: "\n").map {
      $0.trimmingPrefix(while: \.isWhitespace)
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
  /// call in `mode`, and waits for it.
  static func run(_ call: ChildCall, mode: ChildRequest.Mode) -> ChildProcess {
    guard ChildSpawn.isAvailable else {
      return ChildProcess(
        messages: [], standardError: "", ending: .notStarted(ChildSpawn.unavailable))
    }
    guard let directory = TemporaryFolder() else {
      return ChildProcess(
        messages: [], standardError: "", ending: .notStarted("no temporary folder could be made"))
    }
    defer { directory.remove() }
    let request = directory.path + "/request"
    let output = directory.path + "/output"
    let standardError = directory.path + "/stderr"
    guard let text = ChildRequest(output: output, call: call, mode: mode).encoded,
      write(text, to: request)
    else {
      return ChildProcess(
        messages: [], standardError: "",
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
      messages: read(output).split(separator: "\n").compactMap(ChildMessage.init(line:)),
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
