import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// Style 1: await the controlled client's requests. The test knows the model is waiting for
/// an answer because it holds the request, and knows the tap has ended because it awaits it.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct ControlledRequestTests {
  @Test(arguments: FeatureScenario.allCases)
  func scenario(_ scenario: FeatureScenario) async throws {
    try await scenario.run()
  }

  @Test func requestAsksForTheCountAndKind() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: -12, kind: .year, client: facts.client, provider: provider)
      let tap = Task { await model.getFactButtonTapped() }
      let request = try await facts.nextRequest()
      #expect(request.number == -12)
      #expect(request.kind == .year)
      request.answer("12 BC was a year.")
      try await tap.value(timeout: AppFailureBound.standard)
      #expect(model.state.fact == liveFact(-12, "12 BC was a year.", kind: .year))
    }
  }

  @Test func decrementWhileLoadingCancelsToo() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)
      let tap = Task { await model.getFactButtonTapped() }
      let request = try await facts.nextRequest()
      model.decrementButtonTapped()
      try #require(request.observedCancellation)
      try await tap.value(timeout: AppFailureBound.standard)
      #expect(model.state == State(count: -1))
    }
  }

  @Test func cancelledCallerCancelsTheRequest() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await model.getFactButtonTapped() }
        let request = try await facts.nextRequest()
        group.cancelAll()
        try await group.waitForAll()
        #expect(request.observedCancellation)
      }
      #expect(model.state == State())  // cancelled quietly: no error, not loading
    }
  }

  @Test func staleRequestNeverClearsLoadingOfTheNewOne() async throws {
    // The flaw of an older call's `defer { factTask = nil }`: it wipes the newer handle.
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)
      let firstTap = Task { await model.getFactButtonTapped() }
      let first = try await facts.nextRequest()
      let secondTap = Task { await model.getFactButtonTapped() }
      let second = try await facts.nextRequest()
      // The first ended: it threw CancellationError when superseded.
      try await firstTap.value(timeout: AppFailureBound.standard)
      #expect(first.isEnded)
      #expect(model.state.isLoading)
      model.cancelButtonTapped()  // must still reach the second request
      // `#require`, so a regression fails here at once instead of at the tap's bound below.
      try #require(second.observedCancellation)
      try await secondTap.value(timeout: AppFailureBound.standard)
      #expect(model.state == State())
    }
  }

  @Test func nextRequestTimesOutWithAMessage() async throws {
    let facts = ControlledNumberFactClient()
    await #expect {
      _ = try await facts.nextRequest(timeout: .milliseconds(20))
    } throws: { error in
      String(describing: error).contains("No fact request arrived within")
    }
  }
}
