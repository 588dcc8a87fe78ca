import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// A typed number and steps of 100: the count jumps, and the typed number's fact wins over a late
/// answer. Each test waits on the controlled client's requests and the taps themselves.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct NumberEntryTests {
  @Test func aTypedNumberJumpsThereAndFetchesItsFact() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 3, client: facts.client, provider: provider)
      let tap = Task { await model.numberEntered(1729) }
      let request = try await facts.nextRequest()
      #expect(request.number == 1729 && model.state.count == 1729 && model.state.isLoading)
      request.answer("1729 is a taxicab number.")
      try await tap.value(timeout: AppFailureBound.standard)
      #expect(model.state == State(count: 1729, fact: liveFact(1729, "1729 is a taxicab number.")))
    }
  }

  @Test func aNumberTypedWhileLoadingWinsOverTheLateAnswer() async throws {
    let facts = ControlledNumberFactClient(cancellation: .ignore)
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)
      let first = Task { await model.getFactButtonTapped() }
      let old = try await facts.nextRequest()
      let second = Task { await model.numberEntered(7) }
      let new = try await facts.nextRequest()
      new.answer("7 is lucky.")
      try await second.value(timeout: AppFailureBound.standard)
      old.answer("0 is nothing.")  // late, for the old number
      try await first.value(timeout: AppFailureBound.standard)
      #expect(model.state == State(count: 7, fact: liveFact(7, "7 is lucky.")))
    }
  }

  @Test(arguments: [
    (0, 100, 100), (0, -100, -100), (Int.max - 50, 100, Int.max), (Int.min + 50, -100, Int.min),
    (Int.max, 100, Int.max), (Int.min, -100, Int.min),
  ])
  func stepsOfAHundredSaturate(start: Int, delta: Int, end: Int) {
    let model = makeFeature(
      count: start, client: NumberFactClient.testValue, provider: UnimplementedTaskProvider())
    model.countStepped(by: delta)
    #expect(model.state.count == end)
  }
}
