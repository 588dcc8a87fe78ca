import Foundation
import NumberFactCore
import NumberFactTUI
import NumberFactTUITesting
import SuiteSupport
import TaskProvidingTesting
import Testing

/// The app as `numberfact` assembles it (``NumberFactApp``), driven by a script: the store is
/// read after the first frame and written as the app quits, in the real app and in tests
/// alike.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))))
struct AppAssemblyTests {
  @Test func theAppStartsWhereTheLastRunLeftOffAndRemembersWhereItEnds() async throws {
    let store = FactStore.inMemory()
    try await store.saveSession(.init(count: 41, kind: .math))
    try await store.record(
      [NumberFact(number: 41, kind: .math, text: "41 is prime.", source: .offline)], Date())
    let app = AppScript(store: store, restoresSession: true)
    try await app.frame(containing: "Count  41")
    #expect(
      app.terminal.frames.first?.contains("Count  0") == true,
      "the first frame comes before the store is read")
    app.press(.left)
    try await app.frame(containing: "41 is prime.")
    app.type("+")
    try await app.frame(containing: "Count  42")
    #expect(await app.quit() == .quit)
    #expect(try await store.loadSession() == .init(count: 42, kind: .math))
  }

  /// Without `restoresSession` (a count or kind was given) the history is still read, but the
  /// count stays where it was asked to start.
  @Test func aGivenStartIsKeptWhileTheHistoryIsRead() async throws {
    let store = FactStore.inMemory()
    try await store.saveSession(.init(count: 41, kind: .math))
    try await store.record(
      [NumberFact(number: 41, kind: .math, text: "41 is prime.", source: .offline)], Date())
    let provider = RecordingTaskProvider()
    let app = AppScript(count: 5, store: store, provider: provider)
    // The first frame is drawn once the read is spawned; then wait for the read.
    try await app.frame(containing: "Count  5")
    try await provider.waitForAll()
    #expect(app.model.state.count == 5)
    app.press(.left)
    try await app.frame(containing: "41 is prime.")
    #expect(await app.quit() == .quit)
  }
}
