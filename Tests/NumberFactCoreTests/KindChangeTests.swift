import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// `t` on a shown fact: the fact of the next kind is asked for; with none shown, nothing is. Each
/// test waits on the controlled client's requests and the taps themselves.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct KindChangeTests {
  @Test func kindChangeOnAShownFactFetchesTheNewKind() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 2, client: facts.client, provider: provider)
      let tap = Task { await model.getFactButtonTapped() }
      try await facts.nextRequest().answer("2 is even.")
      try await tap.value(timeout: AppFailureBound.standard)
      model.nextKindButtonTapped()
      let request = try await facts.nextRequest()
      #expect(request.number == 2 && request.kind == .math && model.state.isLoading)
      request.answer("2 is the only even prime.")
      try await provider.waitForAll()
      #expect(model.state.fact == liveFact(2, "2 is the only even prime.", kind: .math))
    }
  }

  @Test func kindChangeWithNoFactShownFetchesNothing() {
    let model = makeFeature(
      client: NumberFactClient.testValue, provider: UnimplementedTaskProvider())
    model.nextKindButtonTapped()
    #expect(model.state == State(kind: .math))
  }
}
