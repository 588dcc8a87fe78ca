import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// The feature's fact requests as tasks: each tap's request is held, stepped or awaited
/// through the provider (the second style of docs/testing-async.md), so a late answer, a
/// cancellation before the request runs and requests back to back are tested in order.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct HeldRequestTests {
  // sample: recording-fire-and-forget
  /// The app spawns the tap and forgets it; the test waits for every task it caused.
  @Test func tapSpawnedLikeTheAppDoes() async throws {
    let provider = RecordingTaskProvider()
    let model = makeFeature(count: 6, client: .offline, provider: provider)

    provider.task { await model.getFactButtonTapped() }  // what the key handler does
    try await provider.waitForAll()

    #expect(try await model.state.fact == offlineFact(6, .trivia))
    #expect(!model.state.isLoading)
    #expect(provider.records.map(\.name) == [nil, "fact 6 trivia"])
  }
  // end sample

  // sample: recording-absence
  /// "Nothing stale was written" can only be checked once the stale request has ended:
  /// waiting for every task is what makes the absence observable.
  @Test func lateAnswerAfterIncrementWritesNothing() async throws {
    let facts = ControlledNumberFactClient(cancellation: .ignore)
    let provider = RecordingTaskProvider()
    let model = makeFeature(client: facts.client, provider: provider)

    provider.task { await model.getFactButtonTapped() }
    let request = try await facts.nextRequest()
    model.incrementButtonTapped()
    try #require(request.answer("0 is stale."))
    try await provider.waitForAll()

    #expect(model.state == State(count: 1))
    #expect(provider.records.allSatisfy { $0.status == .finished })
    #expect(provider.records[1].isCancelled)
  }
  // end sample

  // sample: manual-in-flight
  /// The request is held: the test looks at the state between the tap and the answer.
  @Test func isLoadingWhileTheRequestIsHeld() async throws {
    let provider = ManualTaskProvider()
    let model = makeFeature(count: 2, client: .offline, provider: provider)

    let tap = Task { await model.getFactButtonTapped() }
    try await provider.waitForHeldTasks()  // the request task is spawned, not yet run
    #expect(model.state == State(count: 2, isLoading: true))

    await provider.runNext()
    #expect(try await model.state == State(count: 2, fact: offlineFact(2, .trivia)))
    try await tap.value(timeout: .seconds(5))
  }
  // end sample

  @Test func cancelledBeforeItRunsWritesNothingEvenIfTheClientAnswers() async throws {
    let provider = ManualTaskProvider()
    let model = makeFeature(client: .offline, provider: provider)

    let tap = Task { await model.getFactButtonTapped() }
    try await provider.waitForHeldTasks()
    model.cancelButtonTapped()
    #expect(model.state == State())
    await provider.runNext()  // runs cancelled; the offline client answers anyway
    #expect(provider.records[0].isCancelled)
    #expect(model.state == State())
    try await tap.value(timeout: .seconds(5))
  }

  @Test func backToBackHeldRequestsRunInOrder() async throws {
    let provider = ManualTaskProvider()
    let model = makeFeature(client: .offline, provider: provider)

    let firstTap = Task { await model.getFactButtonTapped() }
    try await provider.waitForHeldTasks(1)
    model.incrementButtonTapped()
    let secondTap = Task { await model.getFactButtonTapped() }
    try await provider.waitForHeldTasks(2)

    await provider.runNext()  // the superseded one: answers, writes nothing
    #expect(model.state == State(count: 1, isLoading: true))
    await provider.runNext()
    #expect(try await model.state == State(count: 1, fact: offlineFact(1, .trivia)))
    try await firstTap.value(timeout: .seconds(5))
    try await secondTap.value(timeout: .seconds(5))
  }
}
