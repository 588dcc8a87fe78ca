import Foundation
import Glibc

/// The built `numberfact` executable, next to this test bundle.
let numberfactBinary: URL = URL(fileURLWithPath: CommandLine.arguments[0])
  .deletingLastPathComponent().appending(path: "numberfact")

/// What a finished process said.
struct ProcessResult: Sendable {
  var status: Int32
  var stdout: String
  var stderr: String
  /// User and system CPU time the process used, in seconds.
  var cpuSeconds: Double = 0
}

/// Runs `executable` to completion without blocking a thread of the concurrency pool.
///
/// Spawned directly and reaped with `waitpid`, because `Foundation.Process` notices an exit
/// through a descriptor the child inherits: a daemon the child starts (a tmux server)
/// inherits it too, and the exit is never seen. Output goes to files for the same reason,
/// and the child inherits no other descriptor.
///
/// The child's `XDG_DATA_HOME` and `XDG_CONFIG_HOME` are a directory of its own, removed when
/// it exits, unless `home` names one: a test never reads or writes the store or the settings
/// of the person running it, nor another test's.
func runProcess(
  _ executable: URL, _ arguments: [String], home: String? = nil,
  environment overrides: [String: String] = [:]
) async throws -> ProcessResult {
  let base = NSTemporaryDirectory() + "numberfact-process-\(UUID().uuidString)"
  let ownHome = home == nil ? base + ".home" : nil
  defer {
    unlink(base + ".out")
    unlink(base + ".err")
    if let ownHome { try? FileManager.default.removeItem(atPath: ownHome) }
  }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, base + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_addopen(&actions, 2, base + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  // Nothing else of this process may leak into the child: an inherited socket of another
  // test's server would keep that server's connections open after it closes them.
  closeFrom3(&actions)

  var environment = ProcessInfo.processInfo.environment
  let stateHome = home ?? ownHome ?? base
  environment["XDG_DATA_HOME"] = stateHome + "/data"
  environment["XDG_CONFIG_HOME"] = stateHome + "/config"
  environment.merge(overrides) { _, override in override }
  let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
  guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
  let child = pid
  let (status, cpu) = await onOwnThread { () -> (Int32, Double) in
    var status: Int32 = 0
    var usage = rusage()
    while wait4(child, &status, 0, &usage) == -1, errno == EINTR {}
    let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    // The exit code, or 128 + the signal, as a shell reports it.
    let signal = status & 0x7F
    return (
      signal == 0 ? (status >> 8) & 0xFF : 128 + signal,
      seconds(usage.ru_utime) + seconds(usage.ru_stime)
    )
  }
  return ProcessResult(
    status: status,
    stdout: (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? "",
    stderr: (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? "",
    cpuSeconds: cpu)
}

/// Adds "close every descriptor from 3 up" to `actions`. The glibc call is looked up at run
/// time because the Swift Glibc module does not declare it.
private func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
  typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32)
    -> Int32
  guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
  _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
}

/// The tmux executable, if this machine has one.
let tmuxBinary: URL? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
  .map { URL(fileURLWithPath: $0) }
  .first { FileManager.default.isExecutableFile(atPath: $0.path) }

/// A tmux server of its own with one window at a fixed size, running a shell command, as a
/// person at a terminal would.
///
/// Waiting for text is event-driven: the pane's output is piped into a FIFO, and the test
/// re-reads the screen each time the app writes something, until the text appears or the
/// timeout (a failure bound) passes.
final class TmuxSession: Sendable {
  let tmux: URL
  let socket: String
  let fifo: String
  /// The session's `XDG_DATA_HOME` and `XDG_CONFIG_HOME` parent, which the tmux server and so
  /// the app inherit: the app's store is the session's own.
  let home: String
  private let ownsHome: Bool
  private let reader: Int32
  private let keepOpen: Int32

  init(
    tmux: URL, command: String, columns: Int = 80, rows: Int = 24, home: String? = nil
  ) async throws {
    self.tmux = tmux
    let id = "\(getpid())-\(UUID().uuidString.prefix(8))"
    socket = "numberfact-test-\(id)"
    fifo = NSTemporaryDirectory() + "numberfact-pane-\(id)"
    self.home = home ?? NSTemporaryDirectory() + "numberfact-home-\(id)"
    ownsHome = home == nil
    guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EEXIST) }
    reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    // Our own writer keeps the FIFO from reporting hang-up before tmux opens it.
    keepOpen = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    // The option must be in place before the app's session starts: a command that exits
    // at once (a usage error) would otherwise take its pane, and its output, with it. A
    // server needs a session to hold options, so an idle one comes first.
    try await run("new-session", "-d", "-s", "idle", "cat")
    try await run("set-option", "-g", "remain-on-exit", "on")
    try await run(
      "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "app", command)
    try await run("pipe-pane", "-t", "app", "-O", "cat >> '\(fifo)'")
  }

  deinit {
    close(reader)
    close(keepOpen)
    unlink(fifo)
    unlink(fifo + ".stderr")
    if ownsHome { try? FileManager.default.removeItem(atPath: home) }
  }

  @discardableResult
  func run(_ arguments: String...) async throws -> ProcessResult {
    try await runProcess(tmux, ["-L", socket, "-f", "/dev/null"] + arguments, home: home)
  }

  /// The screen as text, one line per row.
  func screen() async throws -> String {
    try await run("capture-pane", "-p", "-t", "app").stdout
  }

  func send(_ keys: String...) async throws {
    _ = try await runProcess(tmux, ["-L", socket, "send-keys", "-t", "app"] + keys, home: home)
  }

  func resize(columns: Int, rows: Int) async throws {
    try await run("resize-window", "-t", "app", "-x", "\(columns)", "-y", "\(rows)")
  }

  /// The process ID of the app: the first child of the pane's shell.
  ///
  /// - Throws: when there is none. Never -1: `kill(-1, …)` signals every process the
  ///   user may signal, the test runner among them.
  func appPID() async throws -> Int32 {
    let shell = try await panePID()
    let children =
      (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
    guard shell > 0, let pid = children.split(separator: " ").first.flatMap({ Int32($0) }),
      pid > 0
    else { throw POSIXError(.ESRCH) }
    return pid
  }

  /// The process ID of the pane's command.
  func panePID() async throws -> Int32 {
    let output = try await run("display-message", "-p", "-t", "app", "#{pane_pid}").stdout
    return Int32(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  /// Returns the screen once `condition` holds for it.
  /// - Throws: ``ScreenTimeoutError`` with the last screen.
  @discardableResult
  func waitForScreen(
    timeout: Duration = .seconds(10), _ condition: (String) -> Bool
  ) async throws -> String {
    let deadline = ContinuousClock.now + timeout
    while true {
      let screen = try await screen()
      if condition(screen) { return screen }
      let left = deadline - ContinuousClock.now
      guard left > .zero else { throw ScreenTimeoutError(timeout: timeout, screen: screen) }
      await waitForOutput(upTo: left)
    }
  }

  @discardableResult
  func waitForScreen(containing text: String, timeout: Duration = .seconds(10)) async throws
    -> String
  {
    try await waitForScreen(timeout: timeout) { $0.contains(text) }
  }

  /// Suspends until the pane writes something or `limit` passes (a failure bound).
  private func waitForOutput(upTo limit: Duration) async {
    let reader = reader
    await onOwnThread {
      guard waitForDescriptor(reader, events: Int16(POLLIN), upTo: limit) else { return }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      _ = read(reader, &buffer, buffer.count)
    }
  }

  func kill() async {
    let server = (try? await run("display-message", "-p", "#{pid} #{socket_path}").stdout)?
      .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
    _ = try? await run("kill-server")
    // A server asked to exit while it pipes a dead pane's output waits forever for the
    // pipe; ending it closes the pipe, and its helper processes exit with it.
    guard let server, server.count == 2, let pid = Int32(server[0]) else { return }
    Glibc.kill(pid, SIGKILL)
    unlink(String(server[1]))
  }
}

struct ScreenTimeoutError: Error, CustomStringConvertible {
  var timeout: Duration
  var screen: String
  var description: String { "The screen did not match within \(timeout). Screen:\n\(screen)" }
}
