import ConcurrencyExtras
import Dependencies
import ExplorationScenarios
import Foundation
import LockSupport
import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

/// Each exploration here is the `async` form, which gives the main actor back between
/// schedules, so the tests beside the suite are not kept waiting for a whole exploration.
@Suite(.exploresInProcess, .timeLimit(.minutes(ThreadSanitizer.minutes(5))))
struct ExplorationTests {
  /// Our model, every schedule of each scenario. How many there are is asserted, so a change
  /// to the scenario, the model or the explorer that changes the space is noticed.
  @Test func ourModelHoldsInEverySchedule() async {
    let every: [(ExplorationScenario, Int)] = [
      (.tapTwice, 58), (.tapIncrementTap, 112), (.tapCancel, 29), (.kindWhileLoading, 51),
      (.randomThenTap, 66), (.numberWhileLoading, 58), (.backWhileLoading, 112),
    ]
    // Under the sanitizer, the smaller spaces: that pass looks for data races.
    let spaces = ThreadSanitizer.isActive ? every.filter { $0.1 < 100 } : every
    for (scenario, schedules) in spaces {
      let report = await explore(.exhaustive(limit: 100_000, departures: 1)) { exploration in
        scenario.build(exploration) { client, provider in
          NumberFactFeature(numberFact: client, taskProvider: provider)
        }
      }
      #expect(report.failure == nil, "\(scenario)")
      #expect(report.isComplete, "\(scenario)")
      #expect(report.schedules == schedules, "\(scenario): \(report)")
    }
  }

  /// Two facts asked for, with a store whose write tasks the explorer runs in any order among
  /// everything else: the store sees facts in the order they were shown, and every fact shown
  /// reaches it, in every schedule within two departures and in 300 PCT schedules. Without
  /// the chain of writes, PCT finds the order reversed (schedule 17): the first write's hop to
  /// the pool has to wait while the second fact is asked for, answered and written, more
  /// departures from the default order than two, which only a search that can starve a task
  /// reaches.
  @Test(
    arguments: zip(
      [
        ExplorationStrategy.exhaustive(limit: 100_000, departures: 2),
        .pct(seed: 1, schedules: 300),
      ],
      [132, 300]))
  func theStoreSeesFactsInTheOrderTheyWereShownInEverySchedule(
    strategy: ExplorationStrategy, schedules: Int
  ) async {
    let report = await explore(strategy) { exploration in
      // The store logs each write as it begins; the explorer decides when each write task
      // runs among everything else.
      let log = Locked<[String]>([])
      var store = FactStore.inMemory()
      store.recordShown = { facts, _, _ in log.withLock { $0 += facts.map(\.text) } }
      // Two facts shown one after the other, each answered by the explorer: a lighter
      // scenario than the shared ones, whose failures would multiply the schedules.
      let facts = ControlledNumberFactClient(answers: {
        NumberFact(number: $0.number, kind: $0.kind, text: "\($0.number) \($0.kind)")
      })
      let provider = exploration.provider
      let model = NumberFactFeature(
        numberFact: facts.client, taskProvider: provider, store: store,
        now: { Date(timeIntervalSince1970: 0) })
      exploration.action("tap get-fact") {
        _ = provider.task(name: "tap") { await model.getFactButtonTapped() }
      }
      exploration.action("type 1 and Enter") {
        _ = provider.task(name: "tap") { await model.numberEntered(1) }
      }
      exploration.atEnd("the store has every fact shown, in the order shown, a repeat at the top") {
        var stored: [String] = []
        for text in log.withLock({ $0 }) {
          stored.removeAll { $0 == text }
          stored.append(text)
        }
        return stored == model.history.map(\.text)
      }
    }
    #expect(report.failure == nil)
    if case .exhaustive = strategy { #expect(report.isComplete) }
    #expect(report.schedules == schedules)
  }

  /// Random and PCT schedules on our model too, as many as the environment asks for:
  /// NUMBERFACT_EXPLORE_SCHEDULES=100000 runs that many of each locally; CI runs 300, and 100
  /// under ThreadSanitizer.
  @Test func ourModelHoldsUnderRandomAndPCTSchedules() async {
    let count = Self.scheduleBudget
    for scenario in ExplorationScenario.allCases {
      for strategy in [
        ExplorationStrategy.random(seed: 7, schedules: count),
        .pct(seed: 7, schedules: count, depth: 3),
      ] {
        let report = await explore(strategy) { exploration in
          scenario.build(exploration) { client, provider in
            NumberFactFeature(numberFact: client, taskProvider: provider)
          }
        }
        #expect(report.failure == nil, "\(scenario), \(strategy)")
        #expect(report.schedules == count, "\(scenario), \(strategy)")
      }
    }
  }

  static var scheduleBudget: Int {
    ProcessInfo.processInfo.environment["NUMBERFACT_EXPLORE_SCHEDULES"].flatMap(Int.init)
      ?? (ThreadSanitizer.isActive ? 100 : 300)
  }

  @Test func eachFlawIsFoundAndReplays() async {
    for (flaw, scenario) in [
      (FlawedFeature.Flaw.staleAnswerWrites, ExplorationScenario.tapIncrementTap),
      (.supersededRequestClearsLoading, .tapTwice),
      (.kindChangeKeepsTheRequest, .kindWhileLoading),
    ] {
      await Self.findAndReplay(flaw, in: scenario)
    }
  }

  private static func findAndReplay(
    _ flaw: FlawedFeature.Flaw, in scenario: ExplorationScenario
  ) async {
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
      await withKnownIssue {
        found = await explore(strategy, build)
      } matching: {
        $0.description.contains("Exploration (")
      }
      guard let failure = found?.failure else {
        Issue.record("\(strategy) did not find \(flaw) in \(scenario)")
        continue
      }
      // A step names the code where a task went on by its file and line: the image map the
      // names come from is read from the loader's list.
      #expect(
        failure.steps.contains { $0.contains(" resumes in ") && $0.contains(".swift:") },
        "\(failure.steps)")
      // The replay string runs exactly that schedule again, every time.
      for _ in 0..<3 {
        var replayed: ExplorationReport?
        await withKnownIssue {
          replayed = await explore(strategy, replay: failure.replay, build)
        } matching: {
          $0.description.contains(failure.replay)
        }
        #expect(replayed?.failure?.steps == failure.steps)
        #expect(replayed?.failure?.reason == failure.reason)
      }
    }
  }
}

// Sleeps marked "virtual time" below are on an exploration's clock: they take no real time
// and end only when the explorer chooses to move that clock. They are the models' timeouts,
// the behaviour under test, not a way for a test to wait.
