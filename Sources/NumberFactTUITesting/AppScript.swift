import IssueReporting
import NumberFactCore
import NumberFactTUI
import NumberFactTesting
import SnapshotTesting
import TaskProviding
import TaskProvidingTesting

/// The terminal app, scripted: the real render loop on a ``VirtualTerminal``, with a
/// controlled fact client, a recording task provider and a manual clock, so a test types keys,
/// answers requests, moves time and reads frames, and nothing happens unless it says so.
///
/// ```swift
/// @MainActor @Test func typingANumber() async throws {
///   let app = AppScript()
///   app.type("1729\r")
///   try await app.nextRequest().answer("1729 is a taxicab number.")
///   try await app.frame(containing: "1729 is a taxicab number.")
///   assertFrame(app.lastFrame, named: "fact")
/// }
/// ```
@MainActor
package final class AppScript {
  /// The screen the app draws on.
  package let terminal: VirtualTerminal
  /// The fact client the app asks; answer its requests with ``nextRequest(timeout:)``.
  package let facts = ControlledNumberFactClient()
  /// What the app spawns through: taps, requests, the spinner.
  package let provider: any TaskProvider
  /// What the spinner sleeps on; move it with ``advance(by:)``.
  package let clock = ExplorationClock()
  /// The app under test, assembled as the command assembles it.
  package let app: NumberFactApp
  /// The feature the keys drive.
  package var model: NumberFactFeature { app.model }
  /// The loop under test.
  package var loop: RenderLoop { app.loop }
  /// The app's run, started at init.
  package let running: Task<RenderLoop.ExitReason, Never>

  /// Starts the app on a virtual terminal of `size`.
  ///
  /// - Parameters:
  ///   - size: The terminal's size; 80×24 by default.
  ///   - count: The number the app starts at.
  ///   - kind: The kind of fact it starts with.
  ///   - client: The fact client; by default ``facts``, whose requests the script answers.
  ///   - store: What the app remembers across runs; nothing by default.
  ///   - restoresSession: Whether to move to where the store says the last run left off.
  ///   - provider: What the app spawns through; a recording provider by default.
  package init(
    size: TerminalSize = TerminalSize(rows: 24, columns: 80), count: Int = 0,
    kind: FactKind = .trivia, client: NumberFactClient? = nil, store: FactStore? = nil,
    restoresSession: Bool = false, provider: any TaskProvider = RecordingTaskProvider()
  ) {
    terminal = VirtualTerminal(size: size)
    self.provider = provider
    let app = NumberFactApp(
      terminal: terminal, client: client ?? facts.client, store: store, count: count,
      kind: kind, restoresSession: restoresSession, clock: clock, taskProvider: provider)
    self.app = app
    running = Task { await app.run() }
  }

  /// Types `text` as one batch of keys, as a paste arrives: `\r` is Enter, `\u{1B}` Esc,
  /// `\u{7F}` Backspace, `\t` Tab; every other character is itself.
  package func type(_ text: String) {
    terminal.type(text)
  }

  /// Presses `keys` as one batch.
  package func press(_ keys: Key...) {
    terminal.send(keys: keys)
  }

  /// The next request the app makes of ``facts``, to answer or fail.
  package func nextRequest(
    timeout: Duration = AppFailureBound.standard, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws -> ControlledNumberFactClient.Request {
    try await facts.nextRequest(
      timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Waits for the first frame drawn that contains `text`, and returns it.
  @discardableResult
  package func frame(containing text: String, timeout: Duration = AppFailureBound.standard)
    async throws
    -> Frame
  {
    try await terminal.waitForFrame(timeout: timeout) { $0.contains(text) }
  }

  /// The frame on screen now.
  package var lastFrame: Frame? { terminal.lastFrame }

  /// Moves the clock: the spinner turns once per 100 ms. The sleeps it ends have woken when
  /// this returns; what they draw, a test waits for with ``frame(containing:timeout:)``.
  package func advance(by duration: Duration) {
    clock.advance(by: duration)
  }

  /// Resizes the terminal, as a person dragging the window's corner.
  package func resize(to size: TerminalSize) {
    terminal.resize(to: size)
  }

  /// Quits with `q` and returns why the loop ended.
  package func quit() async -> RenderLoop.ExitReason {
    terminal.send(.character("q"))
    return await running.value
  }
}

extension Snapshotting where Value == Frame, Format == String {
  /// A frame as its lines of text, the way a person reads the screen: golden files under the
  /// test's `__Snapshots__` folder, one `.txt` per frame.
  package static var frameText: Snapshotting {
    Snapshotting<String, String>.lines.pullback { frame in frame.lines.joined(separator: "\n") }
  }
}

/// Compares `frame` to the golden text file `named` beside the calling test, and fails the
/// test with a line diff when it differs. Set `SNAPSHOT_TESTING_RECORD=all` to write the
/// files anew after an intended change; a missing file is written and the test fails once.
package func assertFrame(
  _ frame: Frame?, named name: String,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  testName: String = #function, line: UInt = #line, column: UInt = #column
) {
  guard let frame else {
    reportIssue(
      "No frame was drawn to compare with \(name).", fileID: fileID, filePath: filePath, line: line,
      column: column)
    return
  }
  assertSnapshot(
    of: frame, as: .frameText, named: name, fileID: fileID, file: filePath, testName: testName,
    line: line, column: column)
}
