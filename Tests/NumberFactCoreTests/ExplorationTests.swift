import Foundation
import NumberFactCore
import NumberFactTesting
import TaskProviding
import TaskProvidingTesting
import Testing

/// A person's actions on the feature, with what must always hold; no ordering of answers is
/// written anywhere: the explorer tries them.
enum ExplorationScenario: String, CaseIterable, CustomTestStringConvertible {
  case tapTwice = "tap get-fact twice"
  case tapIncrementTap = "tap get-fact, increment, tap get-fact"
  case tapCancel = "tap get-fact, cancel"
  case kindWhileLoading = "tap get-fact, change kind"

  var testDescription: String { rawValue }

  /// Sets `exploration` up for `model`, made from the client the scenario gives it.
  @MainActor
  func build(
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

extension ProcessWideHookTests {
  @MainActor @Suite(.timeLimit(.minutes(2))) struct ExplorationTests {
    /// Our model, every schedule of each scenario. How many there are is asserted, so a change
    /// to the scenario, the model or the explorer that changes the space is noticed.
    @Test(arguments: [
      (ExplorationScenario.tapTwice, 140), (.tapIncrementTap, 224), (.tapCancel, 8),
      (.kindWhileLoading, 8),
    ])
    func ourModelHoldsInEverySchedule(_ scenario: ExplorationScenario, schedules: Int) {
      let report = explore(.exhaustive(limit: 100_000)) { exploration in
        scenario.build(exploration) { client, provider in
          NumberFactFeature(numberFact: client, taskProvider: provider)
        }
      }
      #expect(report.failure == nil)
      #expect(report.isComplete)
      #expect(report.schedules == schedules, "\(report)")
    }

    /// Random and PCT schedules on our model too, as many as the environment asks for:
    /// NUMBERFACT_EXPLORE_SCHEDULES=100000 runs that many of each locally; CI runs 300.
    @Test(arguments: ExplorationScenario.allCases)
    func ourModelHoldsUnderRandomAndPCTSchedules(_ scenario: ExplorationScenario) {
      let count = Self.scheduleBudget
      for strategy in [
        ExplorationStrategy.random(seed: 7, schedules: count),
        .pct(seed: 7, schedules: count, depth: 3),
      ] {
        let report = explore(strategy) { exploration in
          scenario.build(exploration) { client, provider in
            NumberFactFeature(numberFact: client, taskProvider: provider)
          }
        }
        #expect(report.failure == nil)
        #expect(report.schedules == count)
      }
    }

    static var scheduleBudget: Int {
      ProcessInfo.processInfo.environment["NUMBERFACT_EXPLORE_SCHEDULES"].flatMap(Int.init) ?? 300
    }

    @Test(arguments: [
      (FlawedFeature.Flaw.staleAnswerWrites, ExplorationScenario.tapIncrementTap),
      (.supersededRequestClearsLoading, .tapTwice),
      (.kindChangeKeepsTheRequest, .kindWhileLoading),
    ])
    func eachFlawIsFoundAndReplays(_ flaw: FlawedFeature.Flaw, _ scenario: ExplorationScenario) {
      let build: @MainActor (Exploration) async throws -> Void = { exploration in
        scenario.build(exploration) { client, provider in
          FlawedFeature(flaw: flaw, numberFact: client, taskProvider: provider)
        }
      }
      for strategy in [
        ExplorationStrategy.exhaustive(), .random(seed: 1, schedules: 2_000),
        .pct(seed: 1, schedules: 2_000, depth: 3),
      ] {
        var found: ExplorationReport?
        withKnownIssue {
          found = explore(strategy, build)
        } matching: {
          $0.description.contains("Exploration (")
        }
        guard let failure = found?.failure else {
          Issue.record("\(strategy) did not find \(flaw) in \(scenario)")
          continue
        }
        // The replay string runs exactly that schedule again, every time.
        for _ in 0..<3 {
          var replayed: ExplorationReport?
          withKnownIssue {
            replayed = explore(strategy, replay: failure.replay, build)
          } matching: {
            $0.description.contains(failure.replay)
          }
          #expect(replayed?.failure?.steps == failure.steps)
          #expect(replayed?.failure?.reason == failure.reason)
        }
      }
    }
  }
}
