// The feature's timing-sensitive scenarios, each written once and run both once (in
// ControlledRequestTests) and 10,000 times (in RepetitionTests). They synchronize only on
// what the code exposes: the controlled client's requests and the awaited button taps.
// Regions between `// sample:` and `// end sample` are quoted by docs/testing-async.md.

import Foundation
import NumberFactCore
import NumberFactTesting
import TaskProviding
import TaskProvidingTesting
import Testing

/// A feature whose fact client, store, task provider and clock are the given ones: the one
/// way the tests and the benchmark make a feature.
@MainActor
package func makeFeature(
  count: Int = 0, kind: FactKind = .trivia,
  client: NumberFactClient, store: FactStore? = nil, provider: some TaskProvider,
  now: @escaping @Sendable () -> Date = { Date() }
) -> NumberFactFeature {
  NumberFactFeature(
    count: count, kind: kind, numberFact: client, taskProvider: provider, store: store,
    now: now)
}

/// A fact of `text` about `number`, as the controlled client answers it.
func liveFact(_ number: Int, _ text: String, kind: FactKind = .trivia) -> NumberFact {
  NumberFact(number: number, kind: kind, text: text)
}

/// What the offline client answers, to compare with what a feature shows.
func offlineFact(_ number: Int, _ kind: FactKind) async throws -> NumberFact {
  try await NumberFactClient.offline.fact(number, kind)
}

typealias State = NumberFactFeature.State

/// The timing-sensitive scenarios. Each uses `#require`, so a repeated run stops at the
/// first failure instead of reporting thousands.
package enum FeatureScenario: String, CaseIterable, CustomTestStringConvertible {
  case factClearsWhileLoading
  case loadingUntilSuccess
  case loadingUntilFailure
  case loadingUntilCancel
  case outOfOrderStaleAnswersFirst
  case outOfOrderStaleAnswersLast
  case outOfOrderStaleFails
  case incrementWhileLoading
  case cancelWhileLoading
  case nextKindWhileLoading

  package var testDescription: String { rawValue }

  /// Runs the scenario; a check that does not hold throws.
  @MainActor
  package func run() async throws {
    switch self {
    case .factClearsWhileLoading: try await Self.factClearsWhileLoading()
    case .loadingUntilSuccess: try await Self.isLoadingWhileInFlight(ending: .answer)
    case .loadingUntilFailure: try await Self.isLoadingWhileInFlight(ending: .failure)
    case .loadingUntilCancel: try await Self.isLoadingWhileInFlight(ending: .cancel)
    case .outOfOrderStaleAnswersFirst: try await Self.outOfOrder(stale: .answer, first: true)
    case .outOfOrderStaleAnswersLast: try await Self.outOfOrder(stale: .answer, first: false)
    case .outOfOrderStaleFails: try await Self.outOfOrder(stale: .failure, first: true)
    case .incrementWhileLoading: try await Self.incrementWhileLoading()
    case .cancelWhileLoading: try await Self.cancelWhileLoading()
    case .nextKindWhileLoading: try await Self.nextKindWhileLoading()
    }
  }

  enum Ending { case answer, failure, cancel }

  // sample: fact-clears-while-loading
  @MainActor
  static func factClearsWhileLoading() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)

      let first = provider.task { await model.getFactButtonTapped() }
      try await facts.nextRequest().answer("0 is nothing.")
      try await provider.waitFor(first)
      try #require(model.state.fact?.text == "0 is nothing.")

      let second = provider.task { await model.getFactButtonTapped() }
      let request = try await facts.nextRequest()  // the model is waiting for the answer
      try #require(model.state.fact == nil)
      try #require(model.state.isLoading)

      request.answer("0 is the additive identity.")
      try await provider.waitFor(second)
      try #require(
        model.state == State(fact: liveFact(0, "0 is the additive identity.")))
    }
  }
  // end sample

  @MainActor
  static func isLoadingWhileInFlight(ending: Ending) async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)
      try #require(!model.state.isLoading)

      let tap = provider.task { await model.getFactButtonTapped() }
      let request = try await facts.nextRequest()
      try #require(model.state.isLoading)

      switch ending {
      case .answer:
        request.answer("0 is nothing.")
        try await provider.waitFor(tap)
        try #require(model.state == State(fact: liveFact(0, "0 is nothing.")))
      case .failure:
        request.fail(NumberFactError.httpStatus(503))
        try await provider.waitFor(tap)
        try #require(
          model.state == State(errorMessage: NumberFactError.httpStatus(503).description))
      case .cancel:
        model.cancelButtonTapped()
        try #require(!model.state.isLoading)
        try await provider.waitFor(tap)
        try #require(request.observedCancellation)
        try #require(model.state == State())
      }
    }
  }

  // sample: out-of-order
  /// Two taps; the first request ignores its cancellation and answers (or fails) anyway,
  /// before or after the second. The second wins, and `isLoading` stays true until it ends.
  @MainActor
  static func outOfOrder(stale: Ending, first staleFirst: Bool) async throws {
    let facts = ControlledNumberFactClient(cancellation: .ignore)
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)

      let firstTap = provider.task { await model.getFactButtonTapped() }
      let first = try await facts.nextRequest()
      let secondTap = provider.task { await model.getFactButtonTapped() }
      let second = try await facts.nextRequest()
      try #require(first.observedCancellation)  // superseded, and told so
      try #require(!second.observedCancellation)

      if staleFirst {
        try end(first, with: stale)
        try await provider.waitFor(firstTap)  // returns once the stale request has ended
        try #require(model.state == State(isLoading: true))  // still waiting for the second
        second.answer("fresh")
        try await provider.waitFor(secondTap)
      } else {
        second.answer("fresh")
        try await provider.waitFor(secondTap)
        try end(first, with: stale)
        try await provider.waitFor(firstTap)
      }
      try #require(model.state == State(fact: liveFact(0, "fresh")))
    }
  }

  /// Answers or fails a request that ignores cancellation, and checks it was delivered.
  static func end(_ request: ControlledNumberFactClient.Request, with ending: Ending) throws {
    switch ending {
    case .failure: try #require(request.fail(NumberFactError.connectionLost))
    default: try #require(request.answer("stale"))
    }
  }
  // end sample

  // sample: increment-while-loading
  @MainActor
  static func incrementWhileLoading() async throws {
    let facts = ControlledNumberFactClient(cancellation: .ignore)
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(client: facts.client, provider: provider)

      let tap = provider.task { await model.getFactButtonTapped() }
      let request = try await facts.nextRequest()
      model.incrementButtonTapped()
      try #require(request.observedCancellation)
      try #require(model.state == State(count: 1))

      try #require(request.answer("0 is a stale answer."))  // delivered, late
      try await provider.waitFor(tap)
      try #require(model.state == State(count: 1))
    }
  }
  // end sample

  @MainActor
  static func cancelWhileLoading() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 7, client: facts.client, provider: provider)

      let tap = provider.task { await model.getFactButtonTapped() }
      let request = try await facts.nextRequest()
      model.cancelButtonTapped()
      try #require(request.observedCancellation)
      try #require(request.isEnded)  // the client threw CancellationError at once
      try await provider.waitFor(tap)
      try #require(model.state == State(count: 7))  // no fact, no error, not loading
    }
  }

  @MainActor
  static func nextKindWhileLoading() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 3, client: facts.client, provider: provider)

      let tap = provider.task { await model.getFactButtonTapped() }
      let request = try await facts.nextRequest()
      try #require(request.kind == .trivia)
      model.nextKindButtonTapped()
      try #require(request.observedCancellation)
      // The fact on its way is asked for again, in the new kind.
      try #require(model.state == State(count: 3, kind: .math, isLoading: true))
      let next = try await facts.nextRequest()
      try #require(next.kind == .math && next.number == 3)
      try await provider.waitFor(tap)
      try #require(model.state == State(count: 3, kind: .math, isLoading: true))

      next.answer("3 is prime.")
      try await provider.waitForAll()
      try #require(
        model.state
          == State(count: 3, kind: .math, fact: liveFact(3, "3 is prime.", kind: .math)))
    }
  }
}
