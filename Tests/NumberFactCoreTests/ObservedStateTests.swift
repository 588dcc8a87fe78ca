import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// The feature's published state, waited on with `waitUntil` rather than through its tasks
/// (the third style of docs/testing-async.md), for when the test cannot reach the work: it
/// was spawned by code the test does not control.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct ObservedStateTests {
  // sample: observe-state
  @Test func factAppearsAfterAnUnreachableSpawn() async throws {
    let model = makeFeature(count: 10, client: .offline, provider: LiveTaskProvider())

    Task { await model.getFactButtonTapped() }  // out of the test's reach
    try await waitUntil(model) { $0.state.fact != nil }

    #expect(try await model.state == State(count: 10, fact: offlineFact(10, .trivia)))
  }
  // end sample

  @Test func loadingThenAnsweredThroughTheControlledClient() async throws {
    let facts = ControlledNumberFactClient()
    let model = makeFeature(client: facts.client, provider: LiveTaskProvider())

    Task { await model.getFactButtonTapped() }
    try await waitUntil(model) { $0.state.isLoading }
    #expect(model.state.fact == nil)
    try await facts.nextRequest().answer("0 is even.")
    try await waitUntil(model) { !$0.state.isLoading }
    #expect(model.state == State(fact: liveFact(0, "0 is even.")))
  }

  @Test func conditionThatAlreadyHoldsReturnsAtOnce() async throws {
    let model = makeFeature(count: 3, client: .offline, provider: LiveTaskProvider())
    try await waitUntil(model) { $0.state.count == 3 }
  }

  @Test func timeoutReportsTheLastObservedState() async throws {
    let model = makeFeature(count: 3, client: .offline, provider: LiveTaskProvider())
    model.incrementButtonTapped()
    await #expect {
      try await waitUntil(model, timeout: .milliseconds(20)) { $0.state.count == 100 }
    } throws: { error in
      let description = String(describing: error)
      // The observable state, not the client or the provider the model holds.
      return description.contains("did not hold within") && description.contains("count: 4,")
        && description.contains("waitUntil at NumberFactCoreTests/ObservedStateTests.swift:")
        && !description.contains("taskProvider") && !description.contains("numberFact")
    }
  }
}
