import LockSupport
import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// The keys a person expects beyond +, -, f: typed numbers, random facts, history, steps of
/// 100, and t on a fact. Each waits on the controlled client's requests and the taps
/// themselves; answers out of order are given on purpose.
@MainActor @Suite(.timeLimit(.minutes(1)), .responsiveMainActor) struct NewActionTests {
  @Test func aTypedNumberJumpsThereAndFetchesItsFact() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 3, client: facts.client, provider: provider)
      let tap = Task { await model.numberEntered(1729) }
      let request = try await facts.nextRequest()
      #expect(request.number == 1729 && model.count == 1729 && model.isLoading)
      request.answer("1729 is a taxicab number.")
      try await tap.value(timeout: .seconds(5))
      #expect(model.state == State(count: 1729, fact: liveFact(1729, "1729 is a taxicab number.")))
    }
  }

  @Test func askingTheNetworkNowEndsTheBackOffThenAsksForTheFact() async throws {
    let facts = ControlledNumberFactClient()
    let asked = Locked(0)
    var client = facts.client
    client.askNetworkNow = { asked.withLock { $0 += 1 } }
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 5, client: client, provider: provider)
      let tap = Task { await model.askNetworkNowTapped() }
      let request = try await facts.nextRequest()
      // The back-off ended before the request was made.
      #expect(asked.withLock { $0 } == 1)
      #expect(request.number == 5)
      request.answer("5 is live again.")
      try await tap.value(timeout: .seconds(5))
      #expect(model.fact?.text == "5 is live again.")
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
      try await second.value(timeout: .seconds(5))
      old.answer("0 is nothing.")  // late, for the old number
      try await first.value(timeout: .seconds(5))
      #expect(model.state == State(count: 7, fact: liveFact(7, "7 is lucky.")))
    }
  }

  @Test func randomTakesTheNumberItAnswersAbout() async throws {
    let asked = ControlledFunction<FactKind, NumberFact>("random")
    let client = NumberFactClient(
      fact: { _, _ in throw NumberFactError.connectionLost },
      random: { kind, _ in try await asked.function(kind) })
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 5, kind: .math, client: client, provider: provider)
      let tap = Task { await model.randomButtonTapped() }
      let call = try await asked.nextCall()
      #expect(call.input == .math && model.isLoading && model.count == 5)
      call.answer(liveFact(4104, "4104 is a sum of two cubes in two ways.", kind: .math))
      try await tap.value(timeout: .seconds(5))
      #expect(model.count == 4104 && model.fact?.number == 4104 && !model.isLoading)
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
      try await random.value(timeout: .seconds(5))
      #expect(model.state == State(count: 1))
    }
  }

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
      #expect(model.count == 1 && model.kind == .math && model.fact?.text == "1 math")
      #expect(model.historyPosition == HistoryPosition(number: 2, of: 3))
      model.previousFactButtonTapped()
      model.previousFactButtonTapped()  // already at the oldest: stays
      #expect(model.fact?.text == "1 trivia" && model.kind == .trivia)
      model.nextFactButtonTapped()
      model.newestFactButtonTapped()
      #expect(model.fact?.text == "3 math" && model.count == 3)
      model.incrementButtonTapped()
      #expect(model.historyPosition == nil && model.fact == nil)
      model.previousFactButtonTapped()  // from no fact: the newest
      #expect(model.fact?.text == "3 math")
      model.oldestFactButtonTapped()
      #expect(model.fact?.text == "1 trivia")
    }
  }

  @Test func steppingBackCancelsTheRequestInFlight() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)
      let first = Task { await model.numberEntered(8) }
      try await facts.nextRequest().answer("8 is a cube.")
      try await first.value(timeout: .seconds(5))
      let second = Task { await model.numberEntered(9) }
      let request = try await facts.nextRequest()
      model.previousFactButtonTapped()
      #expect(request.observedCancellation)
      try await second.value(timeout: .seconds(5))
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
      #expect(model.count == 6)
    }
  }

  @Test func theAppKeepsAThousandFacts() {
    #expect(NumberFactFeature.historyLimit >= 1_000, "the issue asks for at least 1,000")
  }

  @Test(arguments: [
    (0, 100, 100), (0, -100, -100), (Int.max - 50, 100, Int.max), (Int.min + 50, -100, Int.min),
    (Int.max, 100, Int.max), (Int.min, -100, Int.min),
  ])
  func stepsOfAHundredSaturate(start: Int, delta: Int, end: Int) {
    let model = makeFeature(
      count: start, client: NumberFactClient.testValue, provider: UnimplementedTaskProvider())
    model.countStepped(by: delta)
    #expect(model.count == end)
  }

  @Test func kindChangeOnAShownFactFetchesTheNewKind() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 2, client: facts.client, provider: provider)
      let tap = Task { await model.getFactButtonTapped() }
      try await facts.nextRequest().answer("2 is even.")
      try await tap.value(timeout: .seconds(5))
      model.nextKindButtonTapped()
      let request = try await facts.nextRequest()
      #expect(request.number == 2 && request.kind == .math && model.isLoading)
      request.answer("2 is the only even prime.")
      try await provider.waitForAll()
      #expect(model.fact == liveFact(2, "2 is the only even prime.", kind: .math))
    }
  }

  @Test func kindChangeWithNoFactShownFetchesNothing() {
    let model = makeFeature(
      client: NumberFactClient.testValue, provider: UnimplementedTaskProvider())
    model.nextKindButtonTapped()
    #expect(model.state == State(kind: .math))
  }
}
