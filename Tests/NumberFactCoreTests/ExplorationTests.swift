import ExplorationScenarios
import Foundation
import NumberFactCore
import NumberFactTesting
import TaskProviding
import TaskProvidingTesting
import Testing

extension ExplorationScenario: CustomTestStringConvertible {
  public var testDescription: String { rawValue }
}

extension FlawedFeature.Flaw: CustomTestStringConvertible {
  public var testDescription: String { rawValue }
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
