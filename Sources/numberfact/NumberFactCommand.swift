import ArgumentParser
import Dependencies
import FactClientLive
import FactStore
import Foundation
import NumberFactConfig
import NumberFactCore
import NumberFactTUI
import TaskProviding

/// The version `--version` prints; the one place it is written.
let numberfactVersion = "1.1.0"

/// The `numberfact` command line: the interactive app (the default), `fact` for scripts
/// and `history`. The root takes no options of its own, so an error in a subcommand's
/// arguments comes with that subcommand's usage.
@main
struct NumberFactCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "numberfact",
    abstract: "A counter whose number you can ask facts about.",
    usage: """
      numberfact [--count <n>] [--kind <kind>] [--source <source>] [--print] [options]
        (no subcommand: the interactive app, in this terminal)
      numberfact fact <numbers> ... [--kind <kind>] [--json] [options]
      numberfact history [--search <text>] [--json] [--clear] [--no-store]
      """,
    discussion: AppCommand.keysParagraph,
    version: numberfactVersion,
    subcommands: [AppCommand.self, Fact.self, History.self],
    defaultSubcommand: AppCommand.self
  )
}

/// The interactive app, in this terminal: what `numberfact` runs when no subcommand is named.
struct AppCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app",
    abstract: "The interactive app, in this terminal (the default).",
    usage: """
      numberfact [--count <n>] [--kind <kind>] [--source <source>] [--base-url <url>] [--timeout <s>] [--print] [--no-store]
      """,
    discussion: keysParagraph
  )

  /// The keys, from the table that binds them.
  static let keysParagraph =
    "Keys in the app: \(KeyBindings.summary) Colours are off when NO_COLOR is set."

  @OptionGroup var client: ClientOptions

  @OptionGroup var store: StoreOptions

  // Unconditional, so a negative start such as `--count -5` is a value, not an option.
  @Option(
    parsing: .unconditional,
    help: "The number to start at (default: where you left off, or 0).")
  var count: Int?

  @Flag(
    name: .customLong("print"),
    help: "After quitting, print the last fact shown, so it stays in the scrollback.")
  var printsLastFact = false

  // What the parser does not know, to be told about in `validate()`: `-5` reads as an
  // option to the parser, and deserves a word on where numbers go.
  @Argument(parsing: .allUnrecognized, help: .hidden)
  var unrecognized: [String] = []

  func validate() throws {
    if let problem = UnrecognizedArgument(unrecognized) { throw ValidationError(problem.message) }
  }

  func run() async throws {
    try Settings.check()
    let factStore = store.makeStore(backgroundWrites: true)
    let warnings = StoreWarnings()
    let (reason, lastFact) = try await FactHTTP.whileRunning {
      try await Interactive.run(
        client: client.makeClient(store: factStore, warnings: warnings), kind: client.kind,
        count: count ?? 0, store: factStore,
        restoresSession: count == nil && client.kindOption == nil)
    }
    // The terminal is back to normal here: the line lands on the main screen.
    if printsLastFact, let lastFact { print(FactView.plainText(of: lastFact)) }
    if case .signal(let signal) = reason { throw ExitCode(128 + signal) }
  }
}

/// Prints facts and exits: for pipes and scripts.
struct Fact: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fact",
    abstract: "Print facts about numbers, one line each.",
    discussion: """
      NUMBERS are integers (42, -7), ranges (1..5), dates with --kind date (2/29), or the \
      word random (with --min and --max to bound it). Prints one line per number, in the \
      order given, sanitized (no control characters), and exits 0. On failure prints the \
      reason to stderr and exits 1. With --json, one number prints an object and several \
      print an array.
        numberfact fact 1729 --kind math
        numberfact fact 1..5 10 -3
        numberfact fact --kind date 2/29
        numberfact fact random --kind year --min 1900 --max 1999
      """
  )

  /// The most numbers one command prints.
  static let maximumCount = 10_000

  // All unrecognized words, so that -7 is a number, not an unknown option.
  @Argument(parsing: .allUnrecognized, help: "Numbers, ranges (1..5), dates (2/29), or random.")
  var numbers: [String] = []

  @OptionGroup var client: ClientOptions

  @Option(help: "With random: the smallest number to pick.")
  var min: Int?

  @Option(help: "With random: the largest number to pick.")
  var max: Int?

  @Flag(
    help: "Print JSON: number, kind, text, found, source, and host, offlineReason or seen.")
  var json = false

  @OptionGroup var store: StoreOptions

  /// What the operands ask for.
  enum Request: Equatable {
    case numbers([Int], single: Bool)
    case random(ClosedRange<Int>?)
  }

  func validate() throws {
    _ = try request()
  }

  /// Reads the operands; a message naming the first one that is not a number, range or date.
  func request() throws -> Request {
    // `--` still ends the options, as scripts written for earlier versions use it.
    let numbers = numbers.filter { $0 != "--" }
    guard !numbers.isEmpty else {
      throw ValidationError("Give a number, a range such as 1..5, a date such as 2/29, or random.")
    }
    if numbers.contains("random") {
      guard numbers == ["random"] else {
        throw ValidationError("random stands alone: numberfact fact random --kind math")
      }
      switch (min, max) {
      case (nil, nil): return .random(nil)
      case (let low?, let high?):
        guard low <= high else { throw ValidationError("--min \(low) is above --max \(high).") }
        return .random(low...high)
      case (let low?, nil): return .random(low...Int.max)
      case (nil, let high?): return .random(Int.min...high)
      }
    }
    if min != nil || max != nil {
      throw ValidationError(
        "--min and --max go with random: numberfact fact random --min 1 --max 9")
    }
    var result: [Int] = []
    for operand in numbers {
      do {
        result += try FactOperand.numbers(in: operand, kind: client.kind, limit: Self.maximumCount)
      } catch {
        throw ValidationError(error.description)
      }
      guard result.count <= Self.maximumCount else {
        throw ValidationError(
          "That is more than \(Self.maximumCount.formatted()) numbers; ask for fewer at a time.")
      }
    }
    let single = numbers.count == 1 && !numbers[0].contains("..")
    return .numbers(result, single: single)
  }

  func run() async throws {
    try Settings.check()
    let request = try request()
    let facts: [NumberFact]
    let factStore = store.makeStore()
    let warnings = StoreWarnings()
    let factClient = client.makeClient(store: factStore, warnings: warnings)
    do {
      facts = try await FactHTTP.whileRunning {
        switch request {
        case .random(let range): [try await factClient.random(client.kind, range)]
        case .numbers(let numbers, _): try await factClient.facts(numbers, client.kind)
        }
      }
    } catch {
      printError(NumberFactError.message(for: error))
      throw ExitCode.failure
    }
    if json {
      if case .numbers(_, single: false) = request {
        print(try FactJSON.encoded(facts.map(FactJSON.init)))
      } else if let fact = facts.first {
        print(try FactJSON.encoded(FactJSON(fact)))
      }
    } else {
      print(facts.map(\.text).joined(separator: "\n"))
    }
    if let reason = facts.lazy.compactMap(\.offlineReason).first {
      printError("offline \(facts.count == 1 ? "fact" : "facts"): \(reason)")
    }
    let stored = facts.filter { $0.source == .stored }
    if let newest = stored.compactMap(\.seen).max() {
      let what = stored.count == 1 ? "fact" : "\(stored.count) facts"
      printError("\(what) from the store, \(SeenAge.phrase(seen: newest, now: Date()))")
    }
    if let factStore { await warnings.tolerating { try await factStore.record(facts, Date()) } }
  }
}

/// Where facts come from.
enum SourceOption: String, ExpressibleByArgument, CaseIterable {
  case auto, live, offline
}

extension FactKind: ExpressibleByArgument {}

/// The options that choose and configure the fact client.
struct ClientOptions: ParsableArguments {
  // Optional, so that a flag not given falls back to the settings file, then the default.
  @Option(
    name: .customLong("source"),
    help:
      "Where facts come from: auto (server, offline when unreachable), live, offline (default: auto)."
  )
  var sourceOption: SourceOption?

  @Option(
    name: .customLong("base-url"),
    help: "The fact server's base URL (default: \(NumberFactClient.defaultBaseURL.absoluteString))."
  )
  var baseURLOption: String?

  @Option(
    name: .customLong("kind"),
    help: """
      The kind of fact: trivia, math, date or year (default: trivia; in the app, the last one \
      used).
      """)
  var kindOption: FactKind?

  // Unconditional, so `--timeout -1` reaches the range check instead of reading as a
  // missing value followed by an option.
  @Option(
    name: .customLong("timeout"), parsing: .unconditional,
    help: "Seconds to wait for the fact server (default: 5).")
  var timeoutOption: Double?

  /// Where facts come from: the flag, else the settings file, else `auto`.
  var source: SourceOption {
    sourceOption ?? Settings.config.source.flatMap(SourceOption.init(rawValue:)) ?? .auto
  }

  /// The server: the flag, else the settings file, else numbersapi.com.
  var baseURL: String {
    baseURLOption ?? Settings.config.baseURL ?? NumberFactClient.defaultBaseURL.absoluteString
  }

  /// The kind asked for: the flag, else the settings file, else trivia.
  var kind: FactKind { kindOption ?? Settings.config.kind ?? .trivia }

  /// Seconds to wait: the flag, else the settings file, else 5.
  var timeout: Double { timeoutOption ?? Settings.config.timeout ?? 5 }

  func validate() throws {
    if let timeout = timeoutOption, !(timeout.isFinite && timeout > 0 && timeout <= 600) {
      throw ValidationError("--timeout must be a number of seconds above 0 and at most 600.")
    }
    if let baseURL = baseURLOption, !AppConfig.isServerURL(baseURL) {
      throw ValidationError(
        "--base-url must be an http or https URL, such as http://numbersapi.com.")
    }
  }

  /// The client these options choose. Offline facts, in `offline` and in `auto`'s fallback,
  /// come from `store` first, when there is one: what was seen before, then what can be
  /// computed.
  func makeClient(store: FactStore?, warnings: StoreWarnings) -> NumberFactClient {
    let url = URL(string: baseURL) ?? NumberFactClient.defaultBaseURL
    let duration = Duration.milliseconds(Int64((timeout * 1000).rounded()))
    let offline =
      store.map { NumberFactClient.seenFirst(store: $0, storeFailed: warnings.report) }
      ?? .offline
    switch source {
    case .auto: return .auto(baseURL: url, timeout: duration, offline: offline)
    case .live: return .live(baseURL: url, timeout: duration)
    case .offline: return offline
    }
  }
}

/// The JSON form of a fact, for `numberfact fact --json`.
struct FactJSON: Encodable {
  var number: Int
  var kind: String
  var text: String
  var found: Bool
  var source: String
  var host: String?
  var offlineReason: String?
  /// For a stored fact, and in `history`: when it was seen, in ISO 8601.
  var seen: String?

  init(_ fact: NumberFact) {
    number = fact.number
    kind = fact.kind.rawValue
    text = fact.text
    found = fact.found
    source =
      switch fact.source {
      case .live: "live"
      case .offline: "offline"
      case .stored: "stored"
      }
    host = fact.host
    offlineReason = fact.offlineReason
    seen = fact.seen.map { $0.formatted(.iso8601) }
  }

  /// One line of JSON, keys sorted.
  static func encoded(_ value: some Encodable, with encoder: JSONEncoder = encoder()) throws
    -> String
  {
    String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// An encoder for one line of JSON, keys sorted; one serves any number of values.
  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}

/// Writes `message` to stderr as one line prefixed with the command's name.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("numberfact: \(message)\n".utf8))
}

/// The interactive app: opens the terminal, runs the render loop, restores the terminal.
@MainActor
enum Interactive {
  static func run(
    client: NumberFactClient, kind: FactKind, count: Int, store: FactStore?,
    restoresSession: Bool
  ) async throws -> (reason: RenderLoop.ExitReason, lastFact: NumberFact?) {
    let colors = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    let terminal: NcursesTerminal
    do {
      terminal = try NcursesTerminal.open(colors: colors)
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    defer { terminal.close() }
    await terminal.waitUntilListening()
    let app = NumberFactApp(
      terminal: terminal, client: client, store: store, count: count, kind: kind,
      restoresSession: restoresSession, clock: ContinuousClock(),
      taskProvider: LiveTaskProvider())
    let reason = await app.run()
    return (reason, app.lastFactShown)
  }
}
