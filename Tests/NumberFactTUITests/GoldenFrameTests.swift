import NumberFactCore
import NumberFactTUI
import NumberFactTUITesting
import NumberFactTesting
import SuiteSupport
import Testing

/// Every screen of the app, driven by a script and compared with golden text files in
/// `__Snapshots__/GoldenFrameTests/`. After an intended change to the layout, run with
/// `SNAPSHOT_TESTING_RECORD=all` and review the files' diff.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))))
struct GoldenFrameTests {
  @Test func first() async throws {
    let app = AppScript(count: 42)
    try await app.frame(containing: "Press f")
    assertFrame(app.lastFrame, named: "first")
  }

  @Test func loading() async throws {
    let app = AppScript(count: 42)
    app.type("f")
    _ = try await app.nextRequest()
    try await app.frame(containing: "Fetching")
    app.advance(by: .milliseconds(100))
    try await app.frame(containing: "/ Fetching")
    assertFrame(app.lastFrame, named: "loading")
  }

  // sample: app-script
  @Test func fact() async throws {
    let app = AppScript(count: 42)
    app.type("f")
    try await app.nextRequest().answer("42 is the answer to the ultimate question of life.")
    try await app.frame(containing: "42 is the answer")
    assertFrame(app.lastFrame, named: "fact")
  }
  // end sample

  @Test func error() async throws {
    let app = AppScript(count: 42)
    app.type("f")
    try await app.nextRequest().fail(NumberFactError.httpStatus(503))
    try await app.frame(containing: "Error:")
    assertFrame(app.lastFrame, named: "error")
  }

  @Test func help() async throws {
    let app = AppScript(count: 42)
    app.type("?")
    try await app.frame(containing: "show or hide this help")
    assertFrame(app.lastFrame, named: "help")
  }

  @Test func numberPrompt() async throws {
    let app = AppScript(count: 42)
    app.type("1729x")
    try await app.frame(containing: "Only digits")
    assertFrame(app.lastFrame, named: "number-prompt")
  }

  @Test func history() async throws {
    let app = AppScript()
    for number in ["6", "28", "496"] {
      app.type("\(number)\r")
      try await app.nextRequest().answer("\(number) is a perfect number.")
      try await app.frame(containing: "\(number) is a perfect number.")
    }
    app.press(.left)
    try await app.frame(containing: "2 of 3")
    assertFrame(app.lastFrame, named: "history")
  }

  @Test(arguments: [TerminalSize(rows: 1, columns: 1), TerminalSize(rows: 5, columns: 20)])
  func tiny(size: TerminalSize) async throws {
    let app = AppScript(size: size, count: 42)
    try await app.frame(containing: "4")
    assertFrame(app.lastFrame, named: "tiny-\(size.columns)x\(size.rows)")
  }
}
