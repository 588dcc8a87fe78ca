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
