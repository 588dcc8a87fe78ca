import Dependencies
import Glibc
import NumberFactCore
import NumberFactTUITesting
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import NumberFactTUI

/// A render loop running on a virtual terminal, with a controlled client, a recording
/// provider and a test clock: the product's script harness.
typealias LoopHarness = AppScript

@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))))
struct RenderLoopTests {
  @Test func firstFrameShowsTheCountAndTheHints() async throws {
    let app = LoopHarness(count: 41)
    let frame = try await app.frame(containing: "Count  41")
    #expect(frame.contains("Press f for a trivia fact about 41."))
    #expect(frame.lines.last?.hasPrefix(" +/- count") == true)
    #expect(await app.quit() == .quit)
  }

  @Test func keysDriveTheCountInOrder() async throws {
    let app = LoopHarness()
    app.terminal.send(.character("+"), .up, .character("k"), .character("="))
    try await app.frame(containing: "Count  4")
    app.terminal.send(.character("-"), .down, .character("j"), .character("_"))
    try await app.frame(containing: "Count  0")
    #expect(await app.quit() == .quit)
  }

  @Test func unknownKeysAreIgnored() async throws {
    let app = LoopHarness()
    try await app.frame(containing: "Count  0")
    app.terminal.type("xwzQ\u{7}é字")
    app.terminal.send(.left, .function(5), .other(999), .character("+"))
    try await app.frame(containing: "Count  1")
    #expect(app.terminal.frames.count == 2)  // the unknown keys drew nothing
    #expect(await app.quit() == .quit)
  }

  @Test func workPerKeyPressDoesNotGrow() async throws {
    let app = LoopHarness()
    try await app.frame(containing: "Count  0")
    let presses = 50
    for press in 1...presses {
      app.terminal.send(.character("+"))
      try await app.frame(containing: "Count  \(press)")
    }
    #expect(await app.quit() == .quit)
    // The first frame, then one per press: the change a key makes is laid out with the
    // key's own frame, not again when the model says it changed. Each press used to leave
    // one more observation behind (1,275 renders here), then cost two.
    #expect(app.loop.renderCount <= 1 + presses)
  }

  @Test(arguments: [500, 10_000])
  func pastedBurstIsProcessedInOrderWithNothingLost(keys: Int) async throws {
    let app = LoopHarness()
    app.terminal.type(String(repeating: "+", count: keys) + "--")
    let frame = try await app.frame(containing: "Count  \(keys - 2)")
    #expect(frame.contains("Count  \(keys - 2)"))
    #expect(app.terminal.frames.count <= 3)  // one batch, one redraw
    #expect(app.model.state.count == keys - 2)
    #expect(await app.quit() == .quit)
  }

  @Test func controlZSuspendsTheTerminalAndTheLoopGoesOn() async throws {
    let app = LoopHarness(count: 1, provider: RecordingTaskProvider())
    app.terminal.send(.control("z"))
    app.terminal.type("+")
    try await app.frame(containing: "Count  2")
    #expect(app.terminal.suspensions == 1)
  }

  @Test func controlLRepaintsTheWholeScreenAndTheLoopGoesOn() async throws {
    let app = LoopHarness(count: 1, provider: RecordingTaskProvider())
    app.terminal.send(.control("l"))
    app.terminal.type("+")
    try await app.frame(containing: "Count  2")
    #expect(app.terminal.repaints == 1)
  }

  @Test func getFactShowsTheSpinnerThenTheFact() async throws {
    let provider = RecordingTaskProvider()
    let app = LoopHarness(count: 7, provider: provider)
    app.terminal.send(.character("f"))
    let request = try await app.facts.nextRequest()
    #expect(request.number == 7)
    try await app.frame(containing: "| Fetching a trivia fact about 7…")

    app.clock.advance(by: .milliseconds(100))
    try await app.frame(containing: "/ Fetching")
    app.clock.advance(by: .milliseconds(100))
    try await app.frame(containing: "- Fetching")

    request.answer("7 is the number of days in a week.")
    let frame = try await app.frame(containing: "7 is the number of days in a week.")
    #expect(frame.contains("— from the fact server"))
    #expect(!frame.contains("Fetching"))
    try await provider.waitForAll()  // the spinner stopped with the loading
    #expect(provider.records.map(\.name).contains("spinner"))
    #expect(await app.quit() == .quit)
  }

  /// `y` puts the fact on the terminal's clipboard and says so until the next key.
  @Test func yCopiesTheFactOnScreen() async throws {
    let app = LoopHarness(count: 7, provider: RecordingTaskProvider())
    app.terminal.send(.character("y"))
    try await app.frame(containing: "No fact to copy yet: f gets one.")
    #expect(app.terminal.copied.isEmpty)
    app.terminal.send(.character("f"))
    try await app.facts.nextRequest().answer("7 is the number of\ndays in a week.")
    try await app.frame(containing: "days in a week.")
    app.terminal.send(.character("y"))
    try await app.frame(containing: "Copied the fact to the clipboard.")
    #expect(app.terminal.copied == ["7 is the number of days in a week."])
    app.terminal.send(.character("+"))
    let frame = try await app.frame(containing: "Count  8")
    #expect(!frame.contains("Copied"))
    #expect(await app.quit() == .quit)
  }

  @Test func errorIsShown() async throws {
    let app = LoopHarness()
    app.terminal.send(.enter)
    try await app.facts.nextRequest().fail(NumberFactError.httpStatus(500))
    try await app.frame(containing: "Error: The fact server answered HTTP 500")
    #expect(await app.quit() == .quit)
  }

  @Test func cancelKeyStopsLoading() async throws {
    let app = LoopHarness()
    app.terminal.send(.character(" "))
    let request = try await app.facts.nextRequest()
    try await app.frame(containing: "Fetching")
    app.terminal.send(.escape)
    try await app.frame(containing: "Press f for")
    #expect(request.observedCancellation)
    #expect(await app.quit() == .quit)
  }

  @Test func nextKindAndHelp() async throws {
    let app = LoopHarness()
    app.terminal.send(.character("t"))
    try await app.frame(containing: "Kind   math")
    app.terminal.send(.character("?"))
    try await app.frame(containing: "get a fact")
    app.terminal.send(.character("?"))
    try await app.frame(containing: "Press f for a math fact")
    #expect(await app.quit() == .quit)
  }

  @Test func resizeRedrawsWithoutAKey() async throws {
    let app = LoopHarness()
    try await app.frame(containing: "Count  0")
    app.terminal.resize(to: TerminalSize(rows: 5, columns: 20))
    let small = try await app.terminal.waitForFrame { $0.size.columns == 20 }
    #expect(small.lines[0] == "0 trivia")
    for columns in 1...100 {  // a resize storm
      app.terminal.resize(to: TerminalSize(rows: columns % 30 + 1, columns: columns))
    }
    let last = try await app.terminal.waitForFrame { $0.size.columns == 100 }
    #expect(last.rows.count == 11)
    #expect(await app.quit() == .quit)
  }

  @Test func controlCQuits() async throws {
    let app = LoopHarness()
    app.terminal.send(.control("c"))
    #expect(await app.running.value == .quit)
  }

  @Test func signalMidRequestStopsAndCancelsTheRequest() async throws {
    let provider = RecordingTaskProvider()
    let app = LoopHarness(provider: provider)
    app.terminal.send(.character("f"))
    let request = try await app.facts.nextRequest()
    app.terminal.send(signal: SIGTERM)
    #expect(await app.running.value == .signal(SIGTERM))
    #expect(request.observedCancellation)
    try await provider.waitForAll()
  }

  @Test func closedInputEndsTheLoop() async throws {
    let app = LoopHarness()
    app.terminal.closeInput()
    #expect(await app.running.value == .inputClosed)
  }

  @Test func heldRequestShowsNothingUntilItRuns() async throws {
    let provider = ManualTaskProvider()
    let app = LoopHarness(client: .offline, provider: provider)
    try await app.frame(containing: "Count  0")
    app.terminal.send(.character("f"))
    try await provider.waitForHeldTasks()  // the key spawned the request; it is held
    let waiting = try await app.frame(containing: "| Fetching")
    #expect(!waiting.contains("0 is"))
    await provider.runNext()  // the request: the offline client answers
    try await app.frame(containing: "0 is")
    try await provider.waitForRunningTasks()
    await provider.runAll()  // the spinner, cancelled while held, now ends
    #expect(await app.quit() == .quit)
  }

  /// While `auto` answers offline without asking, the title bar says until when; when the
  /// back-off ends the mark goes, without a key press.
  @Test func theOfflineMarkStaysForTheBackOffAndGoesWhenItEnds() async throws {
    let fallbackClock = ExplorationClock()
    let down = NumberFactClient { _, _ in throw NumberFactError.unreachable(host: "facts.test") }
    let client = NumberFactClient.fallingBack(
      from: down, host: "facts.test",
      policy: FallbackPolicy(firstBackOff: .seconds(15), longestBackOff: .seconds(60)),
      clock: fallbackClock)
    let app = AppScript(client: client)
    app.type("f")
    let frame = try await app.frame(containing: "offline until")
    #expect(frame.lines.contains { $0.contains("offline: cannot reach facts.test") })
    fallbackClock.advance(by: .seconds(15))
    app.advance(by: .seconds(15))
    try await app.terminal.waitForFrame(timeout: AppFailureBound.standard) {
      !$0.contains("offline until") && $0.contains("cannot reach facts.test")
    }
    #expect(await app.quit() == .quit)
  }
}
