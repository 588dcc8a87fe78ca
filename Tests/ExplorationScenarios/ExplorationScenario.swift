// The exploration scenarios of the feature and the flawed copies of its model, shared by
// ExplorationTests and the benchmark.

import NumberFactCore
import NumberFactTesting
import TaskProviding
import TaskProvidingTesting

/// A person's actions on the feature, with what must always hold; no ordering of answers is
/// written anywhere: the explorer tries them.
package enum ExplorationScenario: String, CaseIterable, Sendable {
  case tapTwice = "tap get-fact twice"
  case tapIncrementTap = "tap get-fact, increment, tap get-fact"
  case tapCancel = "tap get-fact, cancel"
  case kindWhileLoading = "tap get-fact, change kind"
  case randomThenTap = "tap random, tap get-fact"
  case numberWhileLoading = "tap get-fact, type 7 and Enter"
  case backWhileLoading = "tap get-fact, step back, tap get-fact"

  /// The scenarios of actions the flawed copies also have.
  package static let original: [Self] = [
    .tapTwice, .tapIncrementTap, .tapCancel, .kindWhileLoading,
  ]

  /// Whether the model spawned this task to ask for a fact.
  private static func isRequest(_ record: TaskRecord) -> Bool {
    guard let name = record.name else { return false }
    return name.hasPrefix("fact ") || name.hasPrefix("random ")
  }

  /// Whether the model spawned this task to ask for a fact, and it has not finished.
  private static func isPendingRequest(_ record: TaskRecord) -> Bool {
    isRequest(record) && record.isPending
  }

  /// Sets `exploration` up for `model`, made from the client the scenario gives it.
  @MainActor
  package func build(
    _ exploration: Exploration,
    model makeModel: (NumberFactClient, any TaskProvider) -> any ExplorableFeature
  ) {
    // A client that ignores cancellation, so a superseded request can still answer late,
    // and that may fail: the explorer picks answer or failure for each request.
    let facts = ControlledNumberFactClient(
      cancellation: .ignore,
      answers: {
        NumberFact(number: $0.number, kind: $0.kind, text: "\($0.number) \($0.kind.rawValue)")
      },
      failures: [NumberFactError.connectionLost])
    // The random number is always 42: the explorer chooses orders, not numbers.
    let client = NumberFactClient(
      fact: facts.client.fact, random: { kind, _ in try await facts.client.fact(42, kind) })
    let provider = exploration.provider
    let model = makeModel(client, provider)
    let tap = { _ = provider.task(name: "tap") { await model.getFactButtonTapped() } }

    switch self {
    case .tapTwice:
      exploration.action("tap get-fact") { tap() }
      exploration.action("tap get-fact") { tap() }
    case .tapIncrementTap:
      exploration.action("tap get-fact") { tap() }
      exploration.action("increment") { model.incrementButtonTapped() }
      exploration.action("tap get-fact") { tap() }
    case .tapCancel:
      exploration.action("tap get-fact") { tap() }
      exploration.action("cancel") { model.cancelButtonTapped() }
    case .kindWhileLoading:
      exploration.action("tap get-fact") { tap() }
      exploration.action("change kind") { model.nextKindButtonTapped() }
    case .randomThenTap:
      exploration.action("tap random") {
        _ = provider.task(name: "tap") { await model.randomButtonTapped() }
      }
      exploration.action("tap get-fact") { tap() }
    case .numberWhileLoading:
      exploration.action("tap get-fact") { tap() }
      exploration.action("type 7 and Enter") {
        _ = provider.task(name: "tap") { await model.numberEntered(7) }
      }
    case .backWhileLoading:
      exploration.action("tap get-fact") { tap() }
      exploration.action("step back") { model.previousFactButtonTapped() }
      exploration.action("tap get-fact") { tap() }
    }

    exploration.invariant("the fact shown is about the current count and kind") {
      let state = model.state
      return state.fact.map { $0.number == state.count && $0.kind == state.kind } ?? true
    }
    // Checked at every step of every schedule: the records are searched in place, not
    // filtered into a copy, with static functions rather than closures, which in main-actor
    // code would check their isolation at run time on every call.
    exploration.invariant("isLoading is true while the latest request is in flight") {
      guard let latest = provider.records.last(where: Self.isRequest), latest.isPending,
        !latest.isCancelled
      else { return true }
      return model.state.isLoading
    }
    exploration.invariant("isLoading is false when no request is in flight") {
      provider.records.contains(where: Self.isPendingRequest) || !model.state.isLoading
    }
    exploration.atEnd("not loading once everything has ended") { !model.state.isLoading }
  }
}
