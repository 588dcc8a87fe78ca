import ArgumentParser
import Dependencies
import FactClientLive
import FactStore
import Foundation
import NumberFactConfig
import NumberFactCore
import NumberFactTUI
import TaskProviding

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
