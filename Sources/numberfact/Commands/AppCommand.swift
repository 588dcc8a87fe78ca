import ArgumentParser
import Dependencies
import FactClientLive
import FactStore
import Foundation
import NumberFactConfig
import NumberFactCore
import NumberFactTUI
import TaskProviding

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
