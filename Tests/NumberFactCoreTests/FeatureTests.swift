import ConcurrencyExtras
import Dependencies
import NumberFactCore
import NumberFactTesting
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// Buttons that change the state at once, error messages, and the unoverridden client.
@MainActor @Suite(.exploring()) struct FeatureTests {
  /// A feature for tests that must not reach the client or spawn.
  func idleFeature(count: Int = 0, kind: FactKind = .trivia) -> NumberFactFeature {
    makeFeature(
      count: count, kind: kind, client: NumberFactClient.testValue,
      provider: UnimplementedTaskProvider())
  }

  @Test func incrementAndDecrement() {
    let model = idleFeature()
    model.incrementButtonTapped()
    model.incrementButtonTapped()
    #expect(model.state.count == 2)
    model.decrementButtonTapped()
    model.decrementButtonTapped()
    model.decrementButtonTapped()
    #expect(model.state == State(count: -1))
  }

  @Test func countSaturatesAtIntMax() {
    let model = idleFeature(count: .max - 1)
    model.incrementButtonTapped()
    model.incrementButtonTapped()
    model.incrementButtonTapped()
    #expect(model.state.count == .max)
    model.decrementButtonTapped()
    #expect(model.state.count == .max - 1)
  }

  @Test func countSaturatesAtIntMin() {
    let model = idleFeature(count: .min + 1)
    model.decrementButtonTapped()
    model.decrementButtonTapped()
    #expect(model.state.count == .min)
    model.incrementButtonTapped()
    #expect(model.state.count == .min + 1)
  }

  @Test func kindCyclesThroughAllKinds() {
    let model = idleFeature()
    var seen: [FactKind] = [model.state.kind]
    for _ in 1...4 {
      model.nextKindButtonTapped()
      seen.append(model.state.kind)
    }
    #expect(seen == [.trivia, .math, .date, .year, .trivia])
  }

  @Test func cancelWithNothingInFlightChangesNothing() {
    let model = idleFeature(count: 5, kind: .date)
    model.cancelButtonTapped()
    #expect(model.state == State(count: 5, kind: .date))
  }

  @Test func getFact() async {
    let client = NumberFactClient { number, kind in liveFact(number, "\(number) is small.") }
    let model = makeFeature(client: client, provider: LiveTaskProvider())
    await model.getFactButtonTapped()
    #expect(model.state == State(fact: liveFact(0, "0 is small.")))
  }

  @Test func getFactAfterIncrementAsksAboutTheNewCount() async {
    let client = NumberFactClient { number, kind in liveFact(number, "\(number) is small.") }
    let model = makeFeature(client: client, provider: LiveTaskProvider())
    model.incrementButtonTapped()
    model.incrementButtonTapped()
    await model.getFactButtonTapped()
    #expect(model.state == State(count: 2, fact: liveFact(2, "2 is small.")))
  }

  @Test func factAtIntMaxThenIncrementKeepsTheFact() async throws {
    let model = makeFeature(count: .max, client: .offline, provider: LiveTaskProvider())
    await model.getFactButtonTapped()
    let fact = try #require(model.state.fact)
    model.incrementButtonTapped()
    #expect(model.state == State(count: .max, fact: fact))
    model.decrementButtonTapped()
    #expect(model.state == State(count: .max - 1))
  }

  @Test(arguments: [
    NumberFactError.httpStatus(404), .timedOut(after: .seconds(5)),
    .unreachable(host: "numbersapi.com"), .connectionLost, .responseTooLarge(limit: 65_536),
    .malformedResponse(reason: "no text"), .invalidURL("::"),
  ])
  func errorMessageIsTheErrorsDescription(error: NumberFactError) async {
    let model = makeFeature(
      client: NumberFactClient { _, _ in throw error }, provider: LiveTaskProvider())
    await model.getFactButtonTapped()
    #expect(model.state == State(errorMessage: error.description))
  }

  struct Hostile: Error, CustomStringConvertible {
    var description: String { "\u{1B}[2J\u{1B}]0;pwned\u{07}bad\nthing" }
  }

  @Test func otherErrorsAreShownOnOneSafeLine() async throws {
    let model = makeFeature(
      client: NumberFactClient { _, _ in throw Hostile() }, provider: LiveTaskProvider())
    await model.getFactButtonTapped()
    let message = try #require(model.state.errorMessage)
    #expect(message == "Could not get a fact: bad thing")
    #expect(!model.state.isLoading)
  }

  @Test func cancellationErrorFromTheClientIsNotShown() async {
    let model = makeFeature(
      client: NumberFactClient { _, _ in throw CancellationError() }, provider: LiveTaskProvider())
    await model.getFactButtonTapped()
    #expect(model.state == State())
  }

  @Test func newRequestClearsThePreviousError() async {
    let failing = LockIsolatedFlag()
    let client = NumberFactClient { number, _ in
      if failing.take() { throw NumberFactError.connectionLost }
      return liveFact(number, "fine")
    }
    let model = makeFeature(client: client, provider: LiveTaskProvider())
    await model.getFactButtonTapped()
    #expect(model.state.errorMessage != nil)
    await model.getFactButtonTapped()
    #expect(model.state == State(fact: liveFact(0, "fine")))
  }

  @Test func unoverriddenClientFailsTheTest() async {
    let model = withDependencies {
      $0.taskProvider = LiveTaskProvider()
    } operation: {
      NumberFactFeature()
    }
    await withKnownIssue {
      await model.getFactButtonTapped()
    } matching: { issue in
      issue.description.contains("Unimplemented: @Dependency(\\.numberFact).fact(0, .trivia)")
    }
    #expect(model.state == State(errorMessage: UnimplementedFactError().description))
  }

  @Test func unoverriddenTaskProviderFailsTheTest() async {
    let model = withDependencies {
      $0.numberFact = .offline
    } operation: {
      NumberFactFeature()
    }
    await withKnownIssue {
      await model.getFactButtonTapped()
    } matching: { issue in
      issue.description.contains("Unimplemented: @Dependency(\\.taskProvider)")
    }
    #expect(model.state.fact != nil)
  }
}

/// True on the first `take()` only.
final class LockIsolatedFlag: Sendable {
  private let taken = LockIsolated(false)
  func take() -> Bool {
    taken.withValue { taken in
      defer { taken = true }
      return !taken
    }
  }
}
