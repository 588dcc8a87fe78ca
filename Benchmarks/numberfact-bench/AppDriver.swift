import Foundation
import Glibc

/// What one session of the app on a pseudo-terminal measured.
struct AppRun: Sendable {
  /// From spawn to the first frame showing the count.
  var launchSeconds: Double
  /// From writing each key to reading the frame that shows its effect.
  var keyLatencies: [Double]
  /// CPU the app used while nobody typed.
  var idleCPUSeconds: Double
  /// Bytes the app wrote while nobody typed: a redraw loop would show here.
  var idleBytes: Int
  var peakResidentBytes: Int
  var exitStatus: Int32
}

/// Something went wrong driving the app.
struct AppDriverError: Error, CustomStringConvertible {
  let description: String
}

/// Runs the app on a pseudo-terminal of 80×24, as a person at a terminal would: waits for
/// its first frame, makes `presses` presses (each after the previous one's frame), idles
/// for `idle`, reads its peak memory, and quits with `q`.
///
/// A press is `+` unless `press` says otherwise: it gets the press's number, writes its keys
/// and returns the seconds its frame took. The app runs with `arguments` and keeps its store
/// under `home` (by default a directory of this run's own).
///
/// Blocking, so it belongs on a thread of its own.
func driveApp(
  binary: String, arguments: [String] = ["--source", "offline"], home: String? = nil,
  presses: Int, idle: Duration, press: ((Int, inout TerminalOutput) throws -> Double)? = nil
) throws -> AppRun {
  let (master, slavePath) = try openPseudoTerminal()
  defer { close(master) }
  var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
  _ = ioctl(master, UInt(TIOCSWINSZ), &size)

  let clock = ContinuousClock()
  let start = clock.now
  let pid = try spawnOnTerminal(binary, arguments, terminal: slavePath, home: home)
  var output = TerminalOutput(fd: master)

  // The first frame is complete once its last row, the key hints, is there.
  guard try output.read(until: { $0.contains("q quit") }, timeout: Duration.seconds(10)) else {
    kill(pid, SIGKILL)
    throw AppDriverError(description: "no first frame within 10 s")
  }
  let launch = (clock.now - start).seconds

  var latencies: [Double] = []
  latencies.reserveCapacity(presses)
  for number in stride(from: 1, through: presses, by: 1) {
    do {
      latencies.append(try (press ?? pressPlus)(number, &output))
    } catch {
      kill(pid, SIGKILL)
      throw error
    }
  }

  // The tail of the last frame (cursor and attribute resets) may still be on its way.
  _ = try output.drainUntilQuiet(for: .milliseconds(200), limit: .seconds(5))
  let cpuBefore = try cpuSeconds(of: pid)
  let idleBytes = try output.drain(for: idle)
  let idleCPU = try cpuSeconds(of: pid) - cpuBefore
  let peak = try peakResident(of: pid)

  _ = write(master, "q", 1)
  let status = try reap(pid, timeout: .seconds(10))
  return AppRun(
    launchSeconds: launch, keyLatencies: latencies, idleCPUSeconds: idleCPU,
    idleBytes: idleBytes, peakResidentBytes: peak, exitStatus: status)
}

/// Presses `+` and waits for the frame showing the new count; its seconds.
func pressPlus(_ number: Int, _ output: inout TerminalOutput) throws -> Double {
  let digit = Character(String(number % 10))
  output.discard()
  let sent = ContinuousClock.now
  try output.write("+")
  // ncurses redraws only what changed. The last digit of the count changes in two rows,
  // the count and the hint below the fact, and the hint is drawn second.
  let drawn = { (text: String) in text.count { $0 == digit } >= 2 }
  guard try output.read(until: drawn, timeout: Duration.seconds(5)) else {
    throw AppDriverError(description: "press \(number) was not drawn within 5 s")
  }
  return (ContinuousClock.now - sent).seconds
}

/// The app's output, read from the pseudo-terminal's master side.
struct TerminalOutput {
  let fd: Int32
  /// Printable text read since the last `discard()`, with escape sequences removed.
  private(set) var text = ""
  private var stripper = EscapeStripper()

  init(fd: Int32) { self.fd = fd }

  mutating func discard() { text = "" }

  /// Types `keys` on the terminal.
  func write(_ keys: String) throws {
    let bytes = Array(keys.utf8)
    guard Glibc.write(fd, bytes, bytes.count) == bytes.count else {
      throw AppDriverError(description: "write failed: errno \(errno)")
    }
  }

  /// Reads until `condition` holds for the text read so far; false at the timeout.
  mutating func read(until condition: (String) -> Bool, timeout: Duration) throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition(text) {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { return false }
      _ = try readAvailable(waiting: left)
    }
    return true
  }

  /// Reads whatever arrives during `duration`; returns how many bytes that was.
  mutating func drain(for duration: Duration) throws -> Int {
    let deadline = ContinuousClock.now + duration
    var bytes = 0
    while true {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { return bytes }
      bytes += try readAvailable(waiting: left)
    }
  }

  /// Reads until nothing has arrived for `quiet`, or `limit` has passed.
  mutating func drainUntilQuiet(for quiet: Duration, limit: Duration) throws -> Int {
    let deadline = ContinuousClock.now + limit
    var bytes = 0
    while ContinuousClock.now < deadline {
      let read = try readAvailable(waiting: quiet)
      if read == 0 { break }
      bytes += read
    }
    return bytes
  }

  /// Waits up to `limit` for output and reads what is there; returns the byte count.
  private mutating func readAvailable(waiting limit: Duration) throws -> Int {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(min(max(limit.seconds * 1000, 1), 60_000))
    let ready = poll(&poller, 1, milliseconds)
    if ready < 0 {
      if errno == EINTR { return 0 }
      throw AppDriverError(description: "poll failed: errno \(errno)")
    }
    guard ready > 0 else { return 0 }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = Glibc.read(fd, &buffer, buffer.count)
    if count < 0 {
      if errno == EINTR || errno == EAGAIN { return 0 }
      throw AppDriverError(description: "the app closed its terminal (errno \(errno))")
    }
    text += stripper.printable(buffer[0..<count])
    return count
  }
}

/// Removes terminal escape sequences and control bytes, keeping what is printed. Keeps its
/// state across reads, since a sequence may be split between two.
struct EscapeStripper {
  private enum Mode { case text, escape, csi, osc, oscEscape, intermediate }
  private var mode = Mode.text

  mutating func printable(_ bytes: ArraySlice<UInt8>) -> String {
    var kept: [UInt8] = []
    for byte in bytes {
      switch mode {
      case .text:
        if byte == 0x1B {
          mode = .escape
        } else if byte >= 0x20 && byte != 0x7F {
          kept.append(byte)
        }
      case .escape:
        switch byte {
        case UInt8(ascii: "["): mode = .csi
        case UInt8(ascii: "]"): mode = .osc
        case 0x20...0x2F: mode = .intermediate
        default: mode = .text
        }
      case .csi:
        if (0x40...0x7E).contains(byte) { mode = .text }
      case .intermediate:
        if !(0x20...0x2F).contains(byte) { mode = .text }
      case .osc:
        if byte == 0x07 { mode = .text } else if byte == 0x1B { mode = .oscEscape }
      case .oscEscape:
        mode = .text
      }
    }
    return String(decoding: kept, as: UTF8.self)
  }
}

/// A new pseudo-terminal: the master's descriptor and the path of its terminal side.
///
/// The pseudo-terminal calls are looked up at run time because the Swift Glibc module
/// declares them only under `_XOPEN_SOURCE`.
func openPseudoTerminal() throws -> (Int32, String) {
  typealias Open = @convention(c) (Int32) -> Int32
  typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
  guard let openSymbol = dlsym(nil, "posix_openpt"), let grantSymbol = dlsym(nil, "grantpt"),
    let unlockSymbol = dlsym(nil, "unlockpt"), let nameSymbol = dlsym(nil, "ptsname")
  else { throw AppDriverError(description: "this C library has no posix_openpt") }
  let master = unsafeBitCast(openSymbol, to: Open.self)(O_RDWR | O_NOCTTY | O_CLOEXEC)
  guard master >= 0 else { throw AppDriverError(description: "posix_openpt: errno \(errno)") }
  guard unsafeBitCast(grantSymbol, to: Open.self)(master) == 0,
    unsafeBitCast(unlockSymbol, to: Open.self)(master) == 0,
    let name = unsafeBitCast(nameSymbol, to: Name.self)(master)
  else {
    close(master)
    throw AppDriverError(description: "cannot set up a pseudo-terminal: errno \(errno)")
  }
  return (master, String(cString: name))
}

/// Starts `binary` in a new session whose controlling terminal is `terminal`.
func spawnOnTerminal(
  _ binary: String, _ arguments: [String], terminal: String, home: String? = nil
) throws -> pid_t {
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  // A new session, so opening the terminal below makes it the controlling one.
  // glibc's POSIX_SPAWN_SETSID, which the Swift Glibc module does not declare.
  let setsid: Int16 = 0x80
  posix_spawnattr_setflags(&attributes, setsid)

  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
  posix_spawn_file_actions_adddup2(&actions, 0, 1)
  posix_spawn_file_actions_adddup2(&actions, 0, 2)

  var environment = ProcessInfo.processInfo.environment
  environment["TERM"] = "xterm-256color"
  environment["NO_COLOR"] = nil
  // A store of the run's own: the benchmark neither reads nor fills the person's.
  let home = home ?? NSTemporaryDirectory() + "numberfact-bench-home-\(getpid())"
  environment["XDG_DATA_HOME"] = home + "/data"
  environment["XDG_CONFIG_HOME"] = home + "/config"
  let argv = ([binary] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid: pid_t = 0
  let result = posix_spawn(&pid, binary, &actions, &attributes, argv, envp)
  guard result == 0 else {
    throw AppDriverError(description: "cannot start \(binary): errno \(result)")
  }
  return pid
}

/// User + system CPU seconds `pid` has used, from `/proc/PID/stat`.
func cpuSeconds(of pid: pid_t) throws -> Double {
  let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
  // Fields after the parenthesized command name, which may itself contain spaces.
  guard let close = stat.lastIndex(of: ")") else {
    throw AppDriverError(description: "unreadable /proc/\(pid)/stat")
  }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
  else { throw AppDriverError(description: "unreadable /proc/\(pid)/stat") }
  return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The largest resident set `pid` has had, from `/proc/PID/status`.
func peakResident(of pid: pid_t) throws -> Int {
  let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    if let kilobytes { return kilobytes * 1024 }
  }
  throw AppDriverError(description: "no VmHWM in /proc/\(pid)/status")
}

/// Waits for `pid` to exit; its status as a shell reports it. Kills it after `timeout`.
func reap(_ pid: pid_t, timeout: Duration) throws -> Int32 {
  let killer = DispatchWorkItem { kill(pid, SIGKILL) }
  DispatchQueue.global().asyncAfter(
    deadline: .now() + .nanoseconds(Int(timeout.seconds * 1e9)), execute: killer)
  defer { killer.cancel() }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1 {
    guard errno == EINTR else { throw AppDriverError(description: "waitpid: errno \(errno)") }
  }
  let signal = status & 0x7F
  return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
}

extension Report {
  func appSection() -> [String] {
    guard !app.isEmpty else { return [] }
    struct Figures {
      let launch, p50, p99, early, late, idle, idleBytes, peak: Summary

      init(_ runs: [AppRun]) {
        let tenth = { (run: AppRun, last: Bool) -> Double in
          let count = max(1, run.keyLatencies.count / 10)
          let part = last ? run.keyLatencies.suffix(count) : run.keyLatencies.prefix(count)
          return percentile(Array(part), 0.5) * 1000
        }
        launch = Summary(runs.map { $0.launchSeconds * 1000 })
        p50 = Summary(runs.map { percentile($0.keyLatencies, 0.5) * 1000 })
        p99 = Summary(runs.map { percentile($0.keyLatencies, 0.99) * 1000 })
        early = Summary(runs.map { tenth($0, false) })
        late = Summary(runs.map { tenth($0, true) })
        idle = Summary(runs.map(\.idleCPUSeconds))
        idleBytes = Summary(runs.map { Double($0.idleBytes) })
        peak = Summary(runs.map { megabytes(Double($0.peakResidentBytes)) })
      }
    }
    let ours = Figures(app)
    let base = appBaseline.isEmpty ? nil : Figures(appBaseline)
    let row = { (name: String, value: (Figures) -> String) in
      "| \(name) | \(value(ours)) | \(base.map(value) ?? "not built (no C compiler)") |"
    }
    return [
      "", "## The app", "",
      "`numberfact --source offline` on a pseudo-terminal of 80×24 (`TERM=xterm-256color`), "
        + "opening the store an untimed run made before them, as every day after the first does, "
        + "beside a minimal C program that draws the same first screen with ncurses and counts "
        + "on `+` (Benchmarks/numberfact-bench/Baseline.swift), in the same runs. A press is "
        + "`+`, written after the previous press was drawn; its latency ends when "
        + "the frame showing the new count has been read. Idle: "
        + "\(plan.idle) with no input, after the presses.", "",
      "| Figure | numberfact | minimal C ncurses |", "|---|---:|---:|",
      row("Launch to first frame, ms") { $0.launch.formatted(1) },
      row("Key press to screen, p50 over \(plan.presses.formatted()), ms") { $0.p50.formatted(2) },
      row("Key press to screen, p99, ms") { $0.p99.formatted(2) },
      row("p50 of the first tenth of the presses, ms") { $0.early.formatted(2) },
      row("p50 of the last tenth of the presses, ms") { $0.late.formatted(2) },
      row("CPU while idle for \(plan.idle), s") { $0.idle.formatted(2) },
      row("Bytes drawn while idle") { $0.idleBytes.formatted(0) },
      row("Peak RSS, MiB") { $0.peak.formatted(1) },
      "",
      "Targets for numberfact: first frame ≤ 20 ms ("
        + (ours.launch.median <= 20 ? "met" : "not met") + "), key press p99 ≤ 0.4 ms ("
        + (ours.p99.median <= 0.4 ? "met" : "not met") + "), peak RSS ≤ 20 MiB ("
        + (ours.peak.median <= 20 ? "met" : "not met") + "). "
        + "CPU is read from `/proc/PID/stat` in clock ticks of 10 ms: 0.00 means no tick.",
    ]
  }
}
