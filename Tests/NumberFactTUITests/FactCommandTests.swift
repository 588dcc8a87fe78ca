import FactServerSupport
import Foundation
import Glibc
import LockSupport
import SuiteSupport
import TaskProviding
import Testing

/// `numberfact fact`, as scripts use it: stdout, stderr and the exit status.
@Suite struct FactCommandTests {
  @Test func printsOneSanitizedLine() async throws {
    let server = try await FactServer(
      body: factJSON(text: "7 is \u{1B}[31mlucky\u{1B}[0m.\nReally."))
    defer { Task { await server.stop() } }
    let result = try await runProcess(
      numberfactBinary,
      ["fact", "7", "--source", "live", "--base-url", server.baseURL.absoluteString])
    #expect(result.status == 0)
    #expect(result.stdout == "7 is lucky. Really.\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func printsJSON() async throws {
    let server = try await FactServer(body: factJSON(text: "Year fact.", type: "year"))
    defer { Task { await server.stop() } }
    let result = try await runProcess(
      numberfactBinary,
      ["fact", "1969", "--kind", "year", "--json", "--base-url", server.baseURL.absoluteString])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == #"{"found":true,"host":"127.0.0.1:"# + "\(server.baseURL.port ?? 0)"
        + #"","kind":"year","number":1969,"source":"live","text":"Year fact."}"# + "\n"
    )
  }

  /// A blackholed network: the server takes the connection and never answers. The wait
  /// costs no CPU: no busy poll on the socket.
  @Test(
    .disabled(
      if: ThreadSanitizer.isActive, "under ThreadSanitizer, CPU time measures the sanitizer"))
  func aSilentServerCostsNoCPUWhileWaiting() async throws {
    let server = try await FactServer.silent()
    defer { Task { await server.stop() } }
    let result = try await runProcess(
      numberfactBinary,
      [
        "fact", "5", "--source", "live", "--timeout", "2", "--base-url",
        server.baseURL.absoluteString,
      ])
    #expect(result.status == 1)
    #expect(result.stderr == "numberfact: No answer from the fact server within 2 seconds.\n")
    // Start-up and the request take a few milliseconds; a busy poll would take most of 2 s.
    #expect(result.cpuSeconds < 0.15)
  }

  @Test func autoSaysWhyItIsOffline() async throws {
    let server = try await FactServer.silent()
    defer { Task { await server.stop() } }
    let result = try await runProcess(
      numberfactBinary,
      [
        "fact", "1729", "--kind", "math", "--timeout", "0.5", "--base-url",
        server.baseURL.absoluteString,
      ])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("1729"))
    #expect(
      result.stderr
        == "numberfact: offline fact: 127.0.0.1:\(server.baseURL.port ?? 0) did not answer in 0.5 s\n"
    )
  }

  @Test func httpsAgainstAPlainServerIsATLSFailure() async throws {
    let server = try await FactServer(body: factJSON(text: "A fact."))
    defer { Task { await server.stop() } }
    let url = "https://127.0.0.1:\(server.baseURL.port ?? 0)"
    let result = try await runProcess(
      numberfactBinary, ["fact", "5", "--source", "live", "--base-url", url])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "numberfact: TLS handshake with 127.0.0.1:\(server.baseURL.port ?? 0) failed.\n")
  }

  @Test func serverErrorExitsOneWithTheReasonLiveAndFallsBackInAuto() async throws {
    let server = try await FactServer(status: 500, body: "oops")
    defer { Task { await server.stop() } }
    let url = server.baseURL.absoluteString
    let live = try await runProcess(
      numberfactBinary, ["fact", "1", "--source", "live", "--base-url", url])
    #expect(live.status == 1)
    #expect(live.stdout.isEmpty)
    #expect(
      live.stderr == "numberfact: The fact server answered HTTP 500 (Internal Server Error).\n")

    let auto = try await runProcess(numberfactBinary, ["fact", "1", "--base-url", url])
    #expect(auto.status == 0)
    #expect(auto.stdout.hasPrefix("1 is"))
    #expect(
      auto.stderr
        == "numberfact: offline fact: 127.0.0.1:\(server.baseURL.port ?? 0) answered HTTP 500\n")
  }

  @Test func unreachableServerLiveFailsAndAutoFallsBack() async throws {
    let url = try await FactServer.closedPortURL().absoluteString
    let live = try await runProcess(
      numberfactBinary, ["fact", "1", "--source", "live", "--base-url", url])
    #expect(live.status == 1)
    #expect(live.stderr.hasPrefix("numberfact: Cannot reach 127.0.0.1"))

    let auto = try await runProcess(numberfactBinary, ["fact", "1", "--base-url", url])
    #expect(auto.status == 0)
    #expect(auto.stdout.hasPrefix("1 is"))
    #expect(auto.stderr.contains("offline fact"))
  }

  @Test func hostThatDoesNotResolveIsUnreachable() async throws {
    // `.invalid` never resolves (RFC 6761), with or without a resolver.
    let result = try await runProcess(
      numberfactBinary,
      ["fact", "1", "--source", "live", "--base-url", "http://numberfact-test.invalid"])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("numberfact: Cannot reach numberfact-test.invalid"))
  }

  @Test(arguments: [
    ["fact", "abc"], ["fact", "99999999999999999999"], ["fact"], ["fact", "1", "--kind", "poem"],
    ["fact", "1", "--timeout", "-1"], ["fact", "1", "--timeout", "nan"],
    ["fact", "1", "--base-url", "ftp://example.com"], ["--count", "x"],
    ["--source", "carrier-pigeon"],
  ])
  func badArgumentsAreUsageErrors(arguments: [String]) async throws {
    let result = try await runProcess(numberfactBinary, arguments)
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Error: "))
    // Each command's errors come with its own usage.
    let usage =
      arguments.first == "fact" ? "Usage: numberfact fact [" : "Usage: numberfact [--count"
    #expect(result.stderr.contains(usage), "\(result.stderr)")
  }

  @Test func versionIsPrinted() async throws {
    let result = try await runProcess(numberfactBinary, ["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: ".").count == 3)
  }

  @Test func theRootUsageSaysThatNoSubcommandRunsTheApp() async throws {
    let result = try await runProcess(numberfactBinary, ["--help"])
    #expect(result.stdout.contains("(no subcommand: the interactive app, in this terminal)"))
    #expect(result.stdout.contains("numberfact fact <numbers>"))
  }

  @Test func aNegativeNumberGivenToTheAppSaysWhereNumbersGo() async throws {
    let result = try await runProcess(numberfactBinary, ["-5"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: '-5' is not an option of the app. To start at -5:"))
  }

  /// What the app's parser does not know gets a message of ours, through its own
  /// validation: a number says where numbers go, a near miss names what was meant.
  @Test(arguments: [
    (["42"], "Error: '42' is not an option of the app. To start at 42: numberfact --count 42"),
    (["--coutn", "5"], "Error: Unknown option '--coutn'. Did you mean '--count'?"),
    (["--bogus"], "Error: Unknown option '--bogus'.\n"),
    (["histroy"], "Error: Unexpected argument 'histroy'. Did you mean 'history'?"),
  ])
  func whatTheAppDoesNotKnowIsNamed(arguments: [String], message: String) async throws {
    let result = try await runProcess(numberfactBinary, arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    #expect(result.stderr.contains("Usage: numberfact [--count"))
  }

  /// Both help screens tell the keys, from the table that binds them.
  @Test func theHelpTellsTheKeysFromTheKeyTable() async throws {
    for arguments in [["--help"], ["app", "--help"]] {
      let result = try await runProcess(numberfactBinary, arguments)
      #expect(result.status == 0)
      // Help wraps at the terminal's width: compare words, not lines.
      let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(words.contains("Ctrl-D Ctrl-U scroll a fact too long for the screen"))
    }
    let app = try await runProcess(numberfactBinary, ["app", "--help"])
    #expect(app.stdout.contains("--count <count>"))
  }

  @Test func timeoutsPrintAsGiven() async throws {
    let server = try await FactServer.silent()
    defer { Task { await server.stop() } }
    let result = try await runProcess(
      numberfactBinary,
      [
        "fact", "5", "--source", "live", "--timeout", "0.001", "--base-url",
        server.baseURL.absoluteString,
      ])
    #expect(result.stderr == "numberfact: No answer from the fact server within 0.001 seconds.\n")
  }

  @Test(arguments: [
    ["fact", "-5", "--source", "offline"], ["fact", "--source", "offline", "-5"],
    ["fact", "--source", "offline", "--", "-5"],
  ])
  func negativeNumbersWorkAnywhere(arguments: [String]) async throws {
    let result = try await runProcess(numberfactBinary, arguments)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("-5 is 5 below zero."))
  }

  @Test func batchesPrintOneLinePerNumberInOrder() async throws {
    let result = try await runProcess(
      numberfactBinary, ["fact", "3..5", "10", "-3", "--source", "offline", "--kind", "math"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.map { $0.prefix(while: { $0 != " " }) } == ["3", "4", "5", "10", "-3"])
  }

  @Test(arguments: [
    (["fact", "5..1"], "Error: '5..1' is empty: put the smaller number first (1..5)."),
    (
      ["fact", "1..20000"],
      "Error: '1..20000' is more than 10,000 numbers; ask for fewer at a time."
    ),
    (["fact", "2/29"], "Error: '2/29' is a date: dates go with --kind date, not trivia."),
    (
      ["fact", "2/29", "--kind", "year"],
      "Error: '2/29' is a date: dates go with --kind date, not year."
    ),
    (
      ["fact", "--kind", "date", "2/30"],
      "Error: '2/30' is not a date: write month/day, such as 2/29 or 12/31."
    ),
    (
      ["fact", "99999999999999999999"], "Error: '99999999999999999999' does not fit in a 64-bit Int"
    ),
    (["fact", "-x"], "Error: '-x' is not a number, a range (1..5), a date (2/29) or random."),
    (["fact", "random", "5"], "Error: random stands alone: numberfact fact random --kind math"),
    (["fact", "3", "--min", "1"], "Error: --min and --max go with random"),
    (
      ["fact", "1", "--timeout", "-1"],
      "Error: --timeout must be a number of seconds above 0 and at most 600."
    ),
  ])
  func badOperandsSayWhatIsWrong(arguments: [String], message: String) async throws {
    let result = try await runProcess(numberfactBinary, arguments + ["--source", "offline"])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix(message))
    #expect(result.stderr.contains("Usage: numberfact fact"))
  }

  @Test func extremeNumbersWork() async throws {
    for number in [Int.max, Int.min] {
      let result = try await runProcess(
        numberfactBinary, ["fact", "--source", "offline", "--", "\(number)"])
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix("\(number)"))
    }
  }
}
