import FactServerSupport
import Foundation
import Glibc
import SuiteSupport
import Testing

/// The store on the real binary: what `fact` remembers, what `history` prints, and what
/// happens to a store that cannot be used. Each test has a home of its own. The plain pass
/// runs them; under ThreadSanitizer the in-process store tests (`Tests/FactStoreTests`) cover
/// the store's concurrency, and these processes' load starved the tests beside them.
@Suite(
  .serialized, .timeLimit(.minutes(2)),
  .disabled(if: ThreadSanitizer.isActive, "the plain pass runs these process tests"))
struct StoreProcessTests {
  /// A directory standing in for the person's `XDG_DATA_HOME` parent, removed afterwards.
  final class Home: Sendable {
    let path = NSTemporaryDirectory() + "numberfact-store-home-\(UUID().uuidString)"
    var store: String { path + "/data/numberfact/store.sqlite" }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func run(_ arguments: [String]) async throws -> ProcessResult {
      try await runProcess(numberfactBinary, arguments, home: path)
    }
  }

  @Test func aLiveFactSeenOnceIsGivenOfflineLaterAndSaysSo() async throws {
    let home = Home()
    let server = try await FactServer(body: factJSON(text: "5 is a live fact.", number: "5"))
    defer { Task { await server.stop() } }
    let live = try await home.run(["fact", "5", "--base-url", server.baseURL.absoluteString])
    #expect(live.status == 0)
    #expect(live.stdout == "5 is a live fact.\n")

    let offline = try await home.run(["fact", "5", "--source", "offline"])
    #expect(offline.status == 0)
    #expect(offline.stdout == "5 is a live fact.\n")
    #expect(offline.stderr == "numberfact: fact from the store, seen just now\n")

    let unreachable = try await FactServer.closedPortURL().absoluteString
    let auto = try await home.run(["fact", "5", "6", "--base-url", unreachable, "--json"])
    #expect(auto.status == 0)
    let facts = try #require(
      try JSONSerialization.jsonObject(with: Data(auto.stdout.utf8)) as? [[String: Any]])
    #expect(facts.map { $0["source"] as? String } == ["stored", "offline"])
    #expect(facts.first?["text"] as? String == "5 is a live fact.")
    #expect((facts.first?["seen"] as? String)?.hasSuffix("Z") == true)
    #expect(auto.stderr.contains("offline facts: cannot reach 127.0.0.1"))
  }

  @Test func historyIsNewestFirstSearchableAndClearable() async throws {
    let home = Home()
    _ = try await home.run(["fact", "1..3", "--source", "offline"])
    _ = try await home.run(["fact", "2", "--source", "offline"])
    let history = try await home.run(["history"])
    #expect(history.status == 0)
    #expect(history.stdout.split(separator: "\n").map { $0.prefix(2) } == ["2 ", "3 ", "1 "])

    let json = try await home.run(["history", "--json", "--search", "MERSENNE"])
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(entries.map { $0["number"] as? Int } == [3])
    for key in ["number", "kind", "text", "source", "seen"] {
      #expect(entries.first?[key] != nil, "\(key)")
    }

    // Standard input is not a terminal here, so it does not ask.
    let clear = try await home.run(["history", "--clear"])
    #expect(clear.status == 0)
    #expect(clear.stderr == "numberfact: forgot 3 facts\n")
    #expect(try await home.run(["history"]).stdout.isEmpty)
  }

  @Test func noStoreNeitherReadsNorWrites() async throws {
    let home = Home()
    _ = try await home.run(["fact", "7", "--source", "offline", "--no-store"])
    #expect(!FileManager.default.fileExists(atPath: home.store))
    _ = try await home.run(["fact", "7", "--source", "offline"])
    let history = try await home.run(["history", "--no-store"])
    #expect(history.status == 0)
    #expect(history.stdout.isEmpty)
    let json = try await home.run(["history", "--json", "--no-store"])
    #expect(json.stdout == "[]\n")
    // Forgetting with no store forgets nothing, and leaves the store that is there alone.
    let clear = try await home.run(["history", "--clear", "--no-store"])
    #expect(clear.status == 0)
    #expect(clear.stderr.contains("forgot 0 facts"))
    #expect(try await home.run(["history"]).stdout.contains("7"))
  }

  @Test func aCorruptStoreIsSaidOnceAndLeftAsItIs() async throws {
    let home = Home()
    try FileManager.default.createDirectory(
      atPath: (home.store as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    let garbage = Data(repeating: 0xA5, count: 8192)
    try garbage.write(to: URL(fileURLWithPath: home.store))
    let result = try await home.run(["fact", "1..20", "--source", "offline"])
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").count == 20)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.contains("cannot be read") == true)
    #expect(lines.first?.contains(home.store) == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: home.store)) == garbage)

    let history = try await home.run(["history"])
    #expect(history.status == 1)
    #expect(history.stderr.contains("cannot be read"))
  }

  @Test func aDirectoryThatCannotBeMadeIsSaidOnceAndFactsStillCome() async throws {
    // Not even root may make a directory under /proc.
    let result = try await runProcess(
      numberfactBinary, ["fact", "1..5", "--source", "offline"],
      environment: ["XDG_DATA_HOME": "/proc/numberfact-none"])
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").count == 5)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("Cannot create /proc/numberfact-none/numberfact"))
  }

  @Test func twoProcessesWritingAtOnceLoseNothing() async throws {
    let home = Home()
    async let first = home.run(["fact", "1..30", "--source", "offline"])
    async let second = home.run(["fact", "31..60", "--source", "offline"])
    let (a, b) = try await (first, second)
    #expect(a.status == 0 && b.status == 0)
    #expect(a.stderr.isEmpty && b.stderr.isEmpty)
    let history = try await home.run(["history", "--json"])
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
    #expect(Set(entries.compactMap { $0["number"] as? Int }) == Set(1...60))
  }
}

/// Faults that need more than a process run: a process killed mid-write, a full disk.
/// They try the binary's handling of the file, not its concurrency, and under
/// ThreadSanitizer their dozen sanitized processes starve the tests beside them: the plain
/// pass runs them.
@Suite(
  .serialized, .timeLimit(.minutes(2)),
  .disabled(if: ThreadSanitizer.isActive, "the plain pass runs these process tests"))
struct StoreFaultProcessTests {
  /// Starts `numberfact` with `arguments` in `home`, waits for `lines` lines of its output
  /// (it prints its facts, then writes them to the store), kills it with SIGKILL and reaps
  /// it.
  static func kill(_ arguments: [String], home: String, afterLines lines: Int) async throws {
    // Made close-on-exec at once (a socket pair, as Glibc's module offers no `pipe2`), so
    // that no process another test spawns meanwhile keeps the write end open and the drain
    // below waits for it; the child's own copy is the dup2 on its stdout.
    var pipeEnds: [Int32] = [0, 0]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, type, 0, &pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = home + "/data"
    let argv = ([numberfactBinary.path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, numberfactBinary.path, &actions, nil, argv, envp)
    close(pipeEnds[1])
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
    let (reader, child) = (pipeEnds[0], pid)
    await onOwnThread {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      var seen = 0
      while seen < lines {
        let count = read(reader, &buffer, buffer.count)
        guard count > 0 else { break }
        seen += buffer[0..<count].lazy.filter { $0 == UInt8(ascii: "\n") }.count
      }
      Glibc.kill(child, SIGKILL)
      while read(reader, &buffer, buffer.count) > 0 {}
      close(reader)
      var status: Int32 = 0
      while waitpid(child, &status, 0) == -1, errno == EINTR {}
    }
  }

  @Test func aProcessKilledMidWriteLeavesAStoreTheNextRunReads() async throws {
    let home = StoreProcessTests.Home()
    _ = try await home.run(["fact", "1..3", "--source", "offline", "--kind", "math"])
    // Killed once all its facts are out: while it opens the store and writes 1,000 rows, or
    // just before; a round here and there may also finish.
    for round in 0..<4 {
      try await Self.kill(
        [
          "fact", "1..1000", "--source", "offline", "--kind",
          round.isMultiple(of: 2) ? "trivia" : "year",
        ],
        home: home.path, afterLines: 1_000 - round)
      let history = try await home.run(["history", "--json"])
      #expect(history.status == 0, "round \(round): \(history.stderr)")
      let entries = try #require(
        try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
      // A batch is one transaction: all of it or none, and what was there before stays.
      let math = entries.filter { $0["kind"] as? String == "math" }.count
      #expect(math == 3, "round \(round)")
      #expect(
        [3, 1_003, 2_003].contains(entries.count), "round \(round): \(entries.count)")
    }
    let after = try await home.run(["fact", "42", "--source", "offline"])
    #expect(after.status == 0)
    #expect(after.stderr.isEmpty)
  }

  /// Runs `body` with a 320 KiB file system as `$XDG_DATA_HOME` (the disk and its
  /// environment), holding a store of five facts; skips where none can be mounted.
  private func withSmallDisk(
    _ body: (String, [String: String]) async throws -> Void
  ) async throws {
    let home = StoreProcessTests.Home()
    let disk = home.path + "/disk"
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    let mount = try await runProcess(
      URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=320k", "tmpfs", disk])
    guard mount.status == 0 else {
      print("Skipping: a small file system cannot be mounted here (\(mount.stderr)).")
      return
    }
    defer { _ = umount2(disk, 2) }  // MNT_DETACH
    let environment = ["XDG_DATA_HOME": disk]
    let first = try await runProcess(
      numberfactBinary, ["fact", "1..5", "--source", "offline"], environment: environment)
    #expect(first.status == 0 && first.stderr.isEmpty)
    try await body(disk, environment)
  }

  @Test func aFullDiskIsSaidOnceAndFactsKeepComing() async throws {
    try await withSmallDisk { disk, environment in
      // Fill all but 48 KiB: room for SQLite's 32 KiB index of the log and a few pages of
      // log, so the write of 301 facts fails part way, which is the point.
      var space = statvfs()
      #expect(statvfs(disk, &space) == 0)
      let free = Int(space.f_bavail) * Int(space.f_frsize)
      _ = FileManager.default.createFile(
        atPath: disk + "/filler", contents: Data(count: max(0, free - 48 * 1024)))
      let full = try await runProcess(
        numberfactBinary, ["fact", "100..400", "--source", "offline"], environment: environment)
      #expect(full.status == 0)
      #expect(full.stdout.split(separator: "\n").count == 301)
      #expect(full.stderr.split(separator: "\n").count == 1)
      #expect(full.stderr.contains("is full"))
      let history = try await runProcess(numberfactBinary, ["history"], environment: environment)
      #expect(history.status == 0)
      #expect(history.stdout.split(separator: "\n").count == 5)
    }
  }

  @Test func aDiskWithNoBlockLeftIsSaidToBeFull() async throws {
    try await withSmallDisk { disk, environment in
      // Not one block left, not even for the log's shared index, which SQLite sizes first.
      let filler = try #require(fopen(disk + "/filler", "w"))
      let block = [UInt8](repeating: 0, count: 4096)
      while fwrite(block, 1, block.count, filler) == block.count, fflush(filler) == 0 {}
      fclose(filler)
      let none = try await runProcess(
        numberfactBinary, ["fact", "6", "--source", "offline"], environment: environment)
      #expect(none.status == 0)
      #expect(none.stdout.contains("perfect number"))
      #expect(none.stderr.contains("is full"), "\(none.stderr)")
    }
  }
}
