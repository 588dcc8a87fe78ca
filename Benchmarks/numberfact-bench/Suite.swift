import Foundation
import Glibc

/// One timed `swift test`.
struct SuiteRun: Sendable {
  var wallSeconds: Double
  var status: Int32
  /// Each test's reported duration, by its name.
  var testSeconds: [(name: String, seconds: Double)]
}

/// Runs `command` in the current directory to completion with its output in a file; the status as a
/// shell reports it, and the output.
///
/// Spawned directly and reaped with `waitpid` on a blocking call: the test suite starts
/// daemons (tmux servers) that would keep a pipe open after the suite exits.
func runCommand(_ command: [String]) throws -> (Int32, String) {
  let log = NSTemporaryDirectory() + "numberfact-bench-\(UUID().uuidString).log"
  defer { unlink(log) }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_adddup2(&actions, 1, 2)

  let environment = ProcessInfo.processInfo.environment
  let argv = command.map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid: pid_t = 0
  let result = posix_spawnp(&pid, command[0], &actions, nil, argv, envp)
  guard result == 0 else {
    throw AppDriverError(description: "cannot start \(command[0]): errno \(result)")
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1 {
    guard errno == EINTR else { throw AppDriverError(description: "waitpid: errno \(errno)") }
  }
  let signal = status & 0x7F
  let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
  return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, output)
}

/// Times `swift test` in the current directory, and reads each test's duration from its output.
func timeSuite() throws -> SuiteRun {
  let clock = ContinuousClock()
  let start = clock.now
  let (status, output) = try runCommand(["swift", "test"])
  let wall = (clock.now - start).seconds
  return SuiteRun(wallSeconds: wall, status: status, testSeconds: testDurations(in: output))
}

/// Each test's duration from Swift Testing's lines such as
/// `Test "Name" passed after 0.012 seconds.` or
/// `Test run(_:) with 10 test cases passed after 1.5 seconds.`
func testDurations(in output: String) -> [(name: String, seconds: Double)] {
  let pattern = /Test (.+?)(?: with \d+ test cases?)? (?:passed|failed) after ([0-9.]+) seconds/
  var durations: [(name: String, seconds: Double)] = []
  for line in output.split(separator: "\n") {
    guard let match = line.firstMatch(of: pattern), let seconds = Double(match.2) else {
      continue
    }
    let name = String(match.1)
    if name.hasPrefix("run with ") { continue }  // the whole run's summary
    durations.append((name, seconds))
  }
  return durations
}

extension Report {
  func suiteSection() -> [String] {
    guard !suite.isEmpty else { return [] }
    let wall = Summary(suite.map(\.wallSeconds))
    // The slowest tests of the run whose wall time is the median.
    let middle = suite.sorted { $0.wallSeconds < $1.wallSeconds }[suite.count / 2]
    let slowest = middle.testSeconds.sorted { $0.seconds > $1.seconds }.prefix(10)
    var lines = [
      "", "## The test suite", "",
      "`swift test` after `swift build --build-tests` (a debug build, as CI runs it). Tests "
        + "run in parallel, so a test's time includes waiting for the machine.", "",
      "Wall time: **\(wall.formatted(1)) s**.", "",
      "Slowest ten tests (the median run):", "",
      "| Test | Seconds |", "|---|---:|",
    ]
    lines += slowest.map {
      "| \($0.name.replacingOccurrences(of: "|", with: "\\|")) "
        + "| \(Summary.format($0.seconds, 3)) |"
    }
    return lines
  }
}
