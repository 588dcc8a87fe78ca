import ArgumentParser
import Dependencies
import FactClientLive
import Foundation
import NumberFactCore
import NumberFactTUI
import TaskProviding

/// The `numberfact` command line: the interactive app, and `fact` for scripts.
@main
struct NumberFactCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "numberfact",
    abstract: "A counter whose number you can ask facts about.",
    discussion: """
      Keys: + = Up k count up; - _ Down j count down; f Enter Space get a fact; \
      c Esc cancel; t next kind; ? help; q Ctrl-C quit. Colours are off when NO_COLOR is set.
      """,
    subcommands: [Fact.self]
  )

  @OptionGroup var client: ClientOptions

  // Unconditional, so a negative start such as `--count -5` is a value, not an option.
  @Option(parsing: .unconditional, help: "The number to start at.")
  var count: Int = 0

  func run() async throws {
    let reason = try await Interactive.run(
      client: client.makeClient(), kind: client.kind, count: count)
    if case .signal(let signal) = reason { throw ExitCode(128 + signal) }
  }

  /// The usual parse-and-run, except that a number such as `-5` read as an option gets a
  /// message saying so, instead of the parser's "missing argument".
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    do {
      var command = try parseAsRoot(arguments)
      do {
        if var command = command as? any AsyncParsableCommand {
          try await command.run()
        } else {
          try command.run()
        }
      } catch {
        await FactHTTP.shutDown()
        throw error
      }
      await FactHTTP.shutDown()
    } catch {
      guard let number = negativeNumberOutsideOperands(arguments), isParseError(error) else {
        exit(withError: error)
      }
      FileHandle.standardError.write(
        Data(
          """
          Error: '\(number)' looks like an option. Give the options first, then -- and the number:
            numberfact fact --kind year -- \(number)
          See 'numberfact fact --help' for more information.

          """.utf8))
      exit(withError: ExitCode.validationFailure)
    }
  }

  /// The first argument like `-5` before any `--`, other than the value of `--count`.
  static func negativeNumberOutsideOperands(_ arguments: [String]) -> String? {
    for (index, argument) in arguments.enumerated() {
      if argument == "--" { return nil }
      if index > 0, arguments[index - 1] == "--count" { continue }
      if argument.count > 1, argument.first == "-", argument.dropFirst().allSatisfy(\.isNumber) {
        return argument
      }
    }
    return nil
  }

  /// Whether `error` came from parsing the arguments rather than from running the command.
  static func isParseError(_ error: any Error) -> Bool {
    exitCode(for: error) == .validationFailure
  }
}

/// Prints one fact and exits: for pipes and scripts.
struct Fact: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print one fact about a number.",
    discussion: """
      Prints the fact on one line (sanitized: no control characters) and exits 0. On \
      failure prints the reason to stderr and exits 1. For a negative number, give the \
      options first, then `--` and the number: numberfact fact --kind year -- -44
      """
  )

  @Argument(help: "The number to print a fact about.")
  var number: Int

  @OptionGroup var client: ClientOptions

  @Flag(help: "Print a JSON object: number, kind, text, found, source, and host or offlineReason.")
  var json = false

  func run() async throws {
    let fact: NumberFact
    do {
      fact = try await client.makeClient().fact(number, client.kind)
    } catch {
      printError(NumberFactFeature.message(for: error))
      throw ExitCode.failure
    }
    if json {
      print(try FactJSON(fact).encoded())
    } else {
      print(fact.text)
    }
    if fact.source == .offline, let reason = fact.offlineReason {
      printError("offline fact: \(reason)")
    }
  }
}

/// Where facts come from.
enum SourceOption: String, ExpressibleByArgument, CaseIterable {
  case auto, live, offline
}

extension FactKind: ExpressibleByArgument {}

/// The options that choose and configure the fact client.
struct ClientOptions: ParsableArguments {
  @Option(help: "Where facts come from: auto (server, offline when unreachable), live, offline.")
  var source: SourceOption = .auto

  @Option(help: "The fact server's base URL.")
  var baseURL: String = NumberFactClient.defaultBaseURL.absoluteString

  @Option(help: "The kind of fact: trivia, math, date or year.")
  var kind: FactKind = .trivia

  @Option(help: "Seconds to wait for the fact server.")
  var timeout: Double = 5

  func validate() throws {
    guard timeout.isFinite, timeout > 0, timeout <= 600 else {
      throw ValidationError("--timeout must be a number of seconds above 0 and at most 600.")
    }
    guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else {
      throw ValidationError(
        "--base-url must be an http or https URL, such as http://numbersapi.com.")
    }
  }

  func makeClient() -> NumberFactClient {
    let url = URL(string: baseURL) ?? NumberFactClient.defaultBaseURL
    let duration = Duration.milliseconds(Int64((timeout * 1000).rounded()))
    switch source {
    case .auto: return .auto(baseURL: url, timeout: duration)
    case .live: return .live(baseURL: url, timeout: duration)
    case .offline: return .offline
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

  init(_ fact: NumberFact) {
    number = fact.number
    kind = fact.kind.rawValue
    text = fact.text
    found = fact.found
    source = fact.source == .live ? "live" : "offline"
    host = fact.host
    offlineReason = fact.offlineReason
  }

  func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}

/// Writes `message` to stderr as one line prefixed with the command's name.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("numberfact: \(message)\n".utf8))
}

/// The interactive app: opens the terminal, runs the render loop, restores the terminal.
@MainActor
enum Interactive {
  static func run(client: NumberFactClient, kind: FactKind, count: Int) async throws
    -> RenderLoop.ExitReason
  {
    let colors = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    let terminal: NcursesTerminal
    do {
      terminal = try NcursesTerminal.open(colors: colors)
    } catch {
      printError("\(error)")
      throw ExitCode.failure
    }
    defer { terminal.close() }
    let provider = LiveTaskProvider()
    let model = withDependencies {
      $0.numberFact = client
      $0.taskProvider = provider
    } operation: {
      NumberFactFeature(count: count, kind: kind)
    }
    let loop = RenderLoop(
      model: model, terminal: terminal, clock: ContinuousClock(), taskProvider: provider)
    return await loop.run()
  }
}
