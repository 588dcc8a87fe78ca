// The exploration scenarios of the feature and the flawed copies of its model, shared by
// ExplorationTests and the benchmark.

import NumberFactCore
import NumberFactTesting
import TaskProviding
import TaskProvidingTesting

/// A person's actions on the feature, with what must always hold; no ordering of answers is
/// written anywhere: the explorer tries them.
public enum ExplorationScenario: String, CaseIterable, Sendable {
  case tapTwice = "tap get-fact twice"
  case tapIncrementTap = "tap get-fact, increment, tap get-fact"
  case tapCancel = "tap get-fact, cancel"
  case kindWhileLoading = "tap get-fact, change kind"

  /// Sets `exploration` up for `model`, made from the client the scenario gives it.
  @MainActor
  public func build(
    _ exploration: Exploration,
    model makeModel: (NumberFactClient, any TaskProvider) -> any ExplorableFeature
  ) {
    // A client that ignores cancellation, so a superseded request can still answer late,
    // and that may fail: the explorer picks answer or failure for each request.
    let facts = ControlledNumberFactClient(
      cancellation: .ignore,
      answers: { NumberFact(number: $0.number, kind: $0.kind, text: "\($0.number) \($0.kind)") },
      failures: [NumberFactError.connectionLost])
    let provider = exploration.provider
    let model = makeModel(facts.client, provider)
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
    }

    /// The request tasks the model spawned, oldest first.
    func requests() -> [TaskRecord] {
      provider.records.filter { $0.name?.hasPrefix("fact ") == true }
    }
    exploration.invariant("the fact shown is about the current count and kind") {
      model.fact.map { $0.number == model.count && $0.kind == model.kind } ?? true
    }
    exploration.invariant("isLoading is true while the latest request is in flight") {
      guard let latest = requests().last, latest.isPending, !latest.isCancelled else {
        return true
      }
      return model.isLoading
    }
    exploration.invariant("isLoading is false when no request is in flight") {
      requests().contains(where: \.isPending) || !model.isLoading
    }
    exploration.atEnd("not loading once everything has ended") { !model.isLoading }
  }
}
