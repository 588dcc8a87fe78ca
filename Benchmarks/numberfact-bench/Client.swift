import FactClient
import FactClientLive
import Foundation
import Glibc

/// What the fact client's section measured: the fact client against a silent network, and the command's
/// start-up.
struct ClientFigures: Sendable {
  let wait: Duration
  /// CPU seconds of `fact --source live` while its one request waits on a silent server.
  var liveWaitCPU: [Double] = []
  /// CPU seconds of `fact --source offline`: start-up and exit alone, the baseline.
  var offlineCPU: [Double] = []
  /// Wall seconds of `fact 5 --source offline`, spawn to exit.
  var offlineWall: [Double] = []
  /// Wall seconds of `/bin/true`, spawn to exit: the cost of spawning anything.
  var trueWall: [Double] = []
  /// Seconds `auto` took for the request that met the silent server, and for the ones
  /// after it, inside the back-off.
  var firstAutoSeconds: [Double] = []
  var laterAutoSeconds: [Double] = []
  /// Seconds the offline client takes for the same requests: the baseline for the later ones.
  var offlineSeconds: [Double] = []
  /// Seconds `auto` took against a port where nothing listens.
  var refusedAutoSeconds: [Double] = []
}

/// A port on 127.0.0.1 that accepts connections and never answers: the kernel completes
/// each handshake into the backlog and nobody reads the request. A blackholed server, with
/// no code of ours in the way.
struct SilentListener: ~Copyable {
  let fd: Int32
  let port: Int

  /// Without `listening`, the port is only bound: connecting to it is refused.
  init(listening: Bool = true) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.fd = fd
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && (!listening || listen(fd, 128) == 0)
          && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw AppDriverError(description: "cannot listen: errno \(errno)") }
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  var url: String { "http://127.0.0.1:\(port)" }

  deinit { close(fd) }
}

/// Runs `binary` with `arguments`, output discarded; wall seconds and CPU seconds.
///
/// No peak memory: `posix_spawn` starts the child on this process's memory, and the kernel
/// carries that into the child's `ru_maxrss`. The app's section reads the app's own from `/proc`.
///
/// `environment` adds `NAME=value` entries to this process's environment for the child.
func timedRun(
  _ binary: String, _ arguments: [String], environment: [String] = []
) throws -> (Double, Double) {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  for fd in Int32(0)...2 {
    posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
  }
  let argv = ([binary] + arguments).map { strdup($0) } + [nil]
  let names = Set(environment.map { $0.prefix { $0 != "=" } })
  let inherited = ProcessInfo.processInfo.environment.filter { !names.contains(Substring($0.key)) }
  let envp = (inherited.map { "\($0.key)=\($0.value)" } + environment).map { strdup($0) } + [nil]
  defer { for pointer in argv + envp { free(pointer) } }
  let clock = ContinuousClock()
  let start = clock.now
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, binary, &actions, nil, argv, envp)
  guard spawned == 0 else { throw AppDriverError(description: "cannot start \(binary)") }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) == -1, errno == EINTR {}
  let wall = (clock.now - start).seconds
  let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return (wall, seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

extension Measure {
  func clientFigures(_ plan: Plan) async throws -> ClientFigures {
    let binary = try appBinary()
    let wait = plan.clientWait
    var figures = ClientFigures(wait: wait)
    let silent = try SilentListener()
    let timeout = String(wait.seconds)
    for run in 1...plan.runs {
      let (_, liveCPU) = try timedRun(
        binary, ["fact", "5", "--source", "live", "--timeout", timeout, "--base-url", silent.url])
      let (_, offlineCPU) = try timedRun(binary, ["fact", "5", "--source", "offline"])
      figures.liveWaitCPU.append(liveCPU)
      figures.offlineCPU.append(offlineCPU)
      log(
        "the fact client: run \(run): live wait \(Summary.format(liveCPU, 3)) s CPU, "
          + "offline \(Summary.format(offlineCPU, 3)) s CPU")
      // Start-to-exit: alternate with /bin/true, several each, so both see the same machine.
      for _ in 0..<10 {
        let (offlineWall, _) = try timedRun(binary, ["fact", "5", "--source", "offline"])
        let (trueWall, _) = try timedRun("/bin/true", [])
        figures.offlineWall.append(offlineWall)
        figures.trueWall.append(trueWall)
      }

      let clock = ContinuousClock()
      let auto = NumberFactClient.auto(
        baseURL: URL(string: silent.url)!, timeout: .milliseconds(Int64(wait.seconds * 250)))
      var start = clock.now
      _ = try await auto.fact(1, .trivia)
      figures.firstAutoSeconds.append((clock.now - start).seconds)
      for number in 2...21 {
        start = clock.now
        _ = try await auto.fact(number, .trivia)
        figures.laterAutoSeconds.append((clock.now - start).seconds)
        start = clock.now
        _ = try await NumberFactClient.offline.fact(number, .trivia)
        figures.offlineSeconds.append((clock.now - start).seconds)
      }
      let refused = try SilentListener(listening: false)
      let refusedURL = URL(string: refused.url)!
      start = clock.now
      _ = try await NumberFactClient.auto(baseURL: refusedURL).fact(1, .trivia)
      figures.refusedAutoSeconds.append((clock.now - start).seconds)
    }
    await FactHTTP.shutDown()
    return figures
  }
}

extension Report {
  func clientSection() -> [String] {
    guard let client else { return [] }
    let milliseconds = { (values: [Double]) in Summary(values.map { $0 * 1000 }).formatted(1) }
    let liveCPU = Summary(client.liveWaitCPU)
    let offlineCPU = Summary(client.offlineCPU)
    let waiting = liveCPU.median - offlineCPU.median
    let later = Summary(client.laterAutoSeconds.map { $0 * 1000 })
    return [
      "", "## The fact client", "",
      "The server is a port on 127.0.0.1 that accepts connections and never answers (the "
        + "kernel completes the handshake; nobody reads the request): a blackholed network. "
        + "CPU is the child's own (`wait4`); its memory is in the app's section.", "",
      "| Run | CPU seconds |", "|---|---:|",
      "| `numberfact fact 5 --source live --timeout \(client.wait.seconds)`, waiting the whole "
        + "time | \(liveCPU.formatted(3)) |",
      "| `numberfact fact 5 --source offline` (baseline: start-up and exit) | "
        + "\(offlineCPU.formatted(3)) |",
      "",
      "CPU used by the wait itself, live minus offline medians: **"
        + Summary.format(max(waiting, 0), 3) + " s** in \(client.wait.seconds) s (target ≤ 0.02 s: "
        + (liveCPU.median <= 0.02 || waiting <= 0.02 ? "met" : "not met") + ").", "",
      "| Start to exit | ms |", "|---|---:|",
      "| `numberfact fact 5 --source offline` | \(milliseconds(client.offlineWall)) |",
      "| `/bin/true` (baseline: spawning anything) | \(milliseconds(client.trueWall)) |",
      "",
      "`auto` in one process (`NumberFactClient.auto`, timeout a quarter of the wait above):",
      "",
      "| Request | ms |", "|---|---:|",
      "| The first, which meets the silent server and times out | "
        + "\(milliseconds(client.firstAutoSeconds)) |",
      "| Each of the next 20, inside the back-off | \(later.formatted(3)) |",
      "| The same requests to the offline client (baseline) | "
        + "\(Summary(client.offlineSeconds.map { $0 * 1000 }).formatted(3)) |",
      "| The first, against a port where nothing listens (refused) | "
        + "\(milliseconds(client.refusedAutoSeconds)) |",
      "",
      "Offline answers inside the back-off: **\(Summary.format(later.median, 3)) ms** "
        + "(target ≤ 50 ms: " + (later.max <= 50 ? "met" : "not met") + ").",
    ]
  }
}
