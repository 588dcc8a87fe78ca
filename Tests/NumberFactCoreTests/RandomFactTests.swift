import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// A random fact: the count takes the number it answers about, unless the person moved it
/// meanwhile. Each test waits on the controlled client's requests and the taps themselves.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct RandomFactTests {
  @Test func randomTakesTheNumberItAnswersAbout() async throws {
    let asked = ControlledFunction<FactKind, NumberFact>("random")
    let client = NumberFactClient(
      fact: { _, _ in throw NumberFactError.connectionLost },
      random: { kind, _ in try await asked.function(kind) })
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 5, kind: .math, client: client, provider: provider)
      let tap = Task { await model.randomButtonTapped() }
      let call = try await asked.nextCall()
      #expect(call.input == .math && model.state.isLoading && model.state.count == 5)
      call.answer(liveFact(4104, "4104 is a sum of two cubes in two ways.", kind: .math))
      try await tap.value(timeout: AppFailureBound.standard)
      #expect(
        model.state.count == 4104 && model.state.fact?.number == 4104 && !model.state.isLoading)
    }
  }

  @Test func aLateRandomAnswerDoesNotMoveTheCount() async throws {
    let asked = ControlledFunction<FactKind, NumberFact>("random", cancellation: .ignore)
    let facts = ControlledNumberFactClient()
    let client = NumberFactClient(
      fact: facts.client.fact, random: { kind, _ in try await asked.function(kind) })
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: client, provider: provider)
      let random = Task { await model.randomButtonTapped() }
      let late = try await asked.nextCall()
      model.incrementButtonTapped()  // supersedes the random request
      late.answer(liveFact(99, "99 is late."))
      try await random.value(timeout: AppFailureBound.standard)
      #expect(model.state == State(count: 1))
    }
  }
}
