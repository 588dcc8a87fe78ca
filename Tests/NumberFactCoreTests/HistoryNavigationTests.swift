import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// The facts seen, stepped through back and forth with the count and kind following, and kept up to
/// their limit. Each test waits on the controlled client's requests and the taps themselves.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct HistoryNavigationTests {
  @Test func historyStepsBackAndForthWithTheCountAndKindFollowing() async throws {
    let client = NumberFactClient { number, kind in
      liveFact(number, "\(number) \(kind)", kind: kind)
    }
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: client, provider: provider)
      await model.numberEntered(1)
      model.nextKindButtonTapped()  // a fact is shown: fetches 1's math fact
      try await provider.waitForAll()
      await model.numberEntered(3)
      #expect(model.history.map(\.text) == ["1 trivia", "1 math", "3 math"])
      #expect(model.historyPosition == HistoryPosition(number: 3, of: 3))
      model.previousFactButtonTapped()
      #expect(
        model.state.count == 1 && model.state.kind == .math && model.state.fact?.text == "1 math")
      #expect(model.historyPosition == HistoryPosition(number: 2, of: 3))
      model.previousFactButtonTapped()
      model.previousFactButtonTapped()  // already at the oldest: stays
      #expect(model.state.fact?.text == "1 trivia" && model.state.kind == .trivia)
      model.nextFactButtonTapped()
      model.newestFactButtonTapped()
      #expect(model.state.fact?.text == "3 math" && model.state.count == 3)
      model.incrementButtonTapped()
      #expect(model.historyPosition == nil && model.state.fact == nil)
      model.previousFactButtonTapped()  // from no fact: the newest
      #expect(model.state.fact?.text == "3 math")
      model.oldestFactButtonTapped()
      #expect(model.state.fact?.text == "1 trivia")
    }
  }

  @Test func steppingBackCancelsTheRequestInFlight() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)
      let first = Task { await model.numberEntered(8) }
      try await facts.nextRequest().answer("8 is a cube.")
      try await first.value(timeout: AppFailureBound.standard)
      let second = Task { await model.numberEntered(9) }
      let request = try await facts.nextRequest()
      model.previousFactButtonTapped()
      #expect(request.observedCancellation)
      try await second.value(timeout: AppFailureBound.standard)
      #expect(model.state == State(count: 8, fact: liveFact(8, "8 is a cube.")))
    }
  }

  @Test func historyKeepsTheNewestUpToItsLimit() async {
    let client = NumberFactClient { number, kind in liveFact(number, "\(number)") }
    await withRecordingTaskProvider { provider in
      let model = NumberFactFeature(numberFact: client, taskProvider: provider, historyLimit: 100)
      for number in 1...105 { await model.numberEntered(number) }
      // A repeat moves to the end, and is not counted twice.
      await model.numberEntered(50)
      #expect(model.history.count == 100)
      #expect(model.history.first?.number == 6)
      #expect(model.history.last?.number == 50)
      #expect(Set(model.history.map(\.number)).count == 100)
      model.oldestFactButtonTapped()
      #expect(model.state.count == 6)
    }
  }

  @Test func theAppKeepsAThousandFacts() {
    #expect(NumberFactFeature.historyLimit >= 1_000, "the issue asks for at least 1,000")
  }
}
