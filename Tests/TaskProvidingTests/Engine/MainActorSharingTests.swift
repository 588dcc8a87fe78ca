import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

/// Explorations beside ordinary `@MainActor` tests, all in parallel as Swift Testing runs
/// them, written as an adopter writes both: each ordinary test taps a model that spawns
/// through its provider and waits on a controlled call with the default 5 s bound. The
/// explorations give the main actor back between schedules, so none of the ordinary tests
/// waits long for it.
@Suite(.exploresInProcess) struct MainActorSharingTests {
  /// Three taps racing on one model, its first 5,000 orders: about half a second of
  /// main-actor work each, several seconds in all, more than an ordinary test's bound. The
  /// sanitizer's pass, which looks for data races, takes the orders within two departures.
  @Test(arguments: 0..<12) @MainActor func anExplorationRunsBesideTheOthers(_ index: Int) async {
    let schedules = ThreadSanitizer.isActive ? 211 : 5_000
    let strategy: ExplorationStrategy =
      ThreadSanitizer.isActive ? .exhaustive(departures: 2) : .exhaustive(limit: 5_000)
    let report = await TapLoader.exploreThreeTaps(strategy)
    #expect(report.failure == nil)
    #expect(report.schedules == schedules)
  }

  /// A tap, the call it makes, its answer: each step needs the main actor within the
  /// controlled call's 5 s bound.
  @Test(arguments: 0..<12) @MainActor func anOrdinaryTestGetsTheMainActorPromptly(
    _ index: Int
  ) async throws {
    try await withRecordingTaskProvider { provider in
      let fetch = ControlledFunction<Int, String>()
      let model = TapLoader(fetch: fetch.function, taskProvider: provider)
      for round in 0..<5 {
        model.tapped(round)
        let call = try await fetch.nextCall()
        #expect(call.input == round)
        #expect(call.answer("fact \(round)"))
        try await provider.waitForAll()
        #expect(model.text == "fact \(round)")
      }
    }
  }
}
