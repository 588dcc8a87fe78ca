import ArgumentParser

/// The `numberfact` command line.
@main
struct NumberFactCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "numberfact",
    abstract: "A counter whose number you can ask facts about.",
    discussion: """
      The interactive terminal app is not built yet: this release ships the TaskProviding \
      toolkit and its tests. Run `swift test` to see them.
      """
  )

  func run() throws {
    throw ValidationError("the interactive app is not built yet; see --help")
  }
}
