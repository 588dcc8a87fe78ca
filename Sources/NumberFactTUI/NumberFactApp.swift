import Foundation
import NumberFactCore
import TaskProviding

/// The terminal app, assembled: the feature, the render loop and the store, put together in
/// this one place for the command and for scripted tests alike, so a test drives the app
/// people run.
@MainActor
package final class NumberFactApp {
  /// The feature the keys drive.
  package let model: NumberFactFeature
  /// The loop between the terminal and the feature.
  package let loop: RenderLoop
  private let restoresSession: Bool

  /// Assembles the app on `terminal`; nothing happens until ``run()``.
  ///
  /// - Parameters:
  ///   - terminal: Where frames go and keys come from.
  ///   - client: Where facts come from.
  ///   - store: What is remembered across runs; `nil` remembers nothing.
  ///   - count: The number to start at.
  ///   - kind: The kind of fact to start with.
  ///   - restoresSession: Whether to move to where the last run left off, read from the
  ///     store, unless the person has moved first.
  ///   - clock: What the spinner and the offline mark wait on.
  ///   - taskProvider: What every task of the app is spawned through.
  ///   - now: The time a fact is recorded as seen.
  package init<C: Clock<Duration>>(
    terminal: any Terminal, client: NumberFactClient, store: FactStore? = nil,
    count: Int = 0, kind: FactKind = .trivia, restoresSession: Bool = false,
    clock: C, taskProvider: any TaskProvider,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    model = NumberFactFeature(
      count: count, kind: kind, numberFact: client, taskProvider: taskProvider, store: store,
      now: now)
    loop = RenderLoop(model: model, terminal: terminal, clock: clock, taskProvider: taskProvider)
    self.restoresSession = restoresSession
  }

  /// Runs the app until the person quits, a signal arrives or the input ends: draws the
  /// first frame, then reads the store (never on the first frame's path), and on the way out
  /// writes where the person is.
  package func run() async -> RenderLoop.ExitReason {
    // Spawned before the loop starts and run after its first frame: the loop draws it before
    // it first waits.
    model.startRestoringFromStore(session: restoresSession)
    let reason = await loop.run()
    await model.rememberSession()
    return reason
  }

  /// The last fact the screen showed, even if a later key cleared it.
  package var lastFactShown: NumberFact? { loop.lastFactShown }
}
