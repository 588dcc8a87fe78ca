import ConcurrencyExtras
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

// sample: wallet
/// Pays from an account kept by a remote ledger: read the balance, then write the new one.
@MainActor
final class Wallet {
  private let taskProvider: any TaskProvider
  private let balance: @Sendable () async throws -> Int
  private let setBalance: @Sendable (Int) async throws -> Void
  private(set) var paid: [Int] = []

  init(
    taskProvider: any TaskProvider,
    balance: @escaping @Sendable () async throws -> Int,
    setBalance: @escaping @Sendable (Int) async throws -> Void
  ) {
    self.taskProvider = taskProvider
    self.balance = balance
    self.setBalance = setBalance
  }

  func pay(_ amount: Int) {
    taskProvider.task(name: "pay \(amount)") {
      // Check, then act: another payment may read the same balance in between.
      guard let current = try? await self.balance(), current >= amount else { return }
      guard (try? await self.setBalance(current - amount)) != nil else { return }
      self.paid.append(amount)
    }
  }
}
// end sample

extension ProcessWideHookTests {
  @MainActor @Suite struct ExplorerTests {
    /// A job from outside (here the shared timer ending an unanswered call; in an app, a
    /// sleep ending) arrives while there is nothing to choose: the schedule goes on with it.
    @Test func aScheduleWaitsForAJobFromOutside() {
      let report = explore(.random(seed: 3, schedules: 3)) { exploration in
        let provider = exploration.provider
        let silent = ControlledFunction<Int, Int>(
          "call nobody answers", answerTimeout: .milliseconds(10))
        var outcome = "none"
        exploration.action("ask") {
          provider.task { @MainActor in
            do { outcome = "\(try await silent.function(1))" } catch { outcome = "unanswered" }
          }
        }
        exploration.atEnd("the call ended unanswered") { outcome == "unanswered" }
      }
      #expect(report.failure == nil)
      #expect(report.schedules == 3)
    }

    @Test func aScenarioStuckOnSomethingNoChoiceGivesIsReported() {
      let never = ControlledFunction<Int, Int>("lookup without answers")
      var report: ExplorationReport?
      withKnownIssue {
        report = explore(.exhaustive(), outsideWait: .milliseconds(20)) { exploration in
          let provider = exploration.provider
          exploration.action("look up") {
            provider.task(name: "lookup") { _ = try? await never.function(1) }
          }
        }
      } matching: {
        $0.description.contains("yet tasks are still pending")
      }
      #expect(report?.failure?.reason.contains("'lookup'") == false)
      #expect(report?.failure?.reason.contains("\"lookup\"") == true)
    }

    @Test func aMalformedReplayIsReportedNotRun() {
      var report: ExplorationReport?
      withKnownIssue {
        report = explore(.exhaustive(), replay: "0.1.2") { _ in }
      } matching: {
        $0.description.contains("is not a replay string")
      }
      #expect(report?.schedules == 0)
    }

    @Test func randomSchedulesReplayExactly() {
      let build: @MainActor (Exploration) async throws -> Void = { exploration in
        ExplorationScenario.tapTwice.build(exploration) { client, provider in
          FlawedFeature(
            flaw: .supersededRequestClearsLoading, numberFact: client, taskProvider: provider)
        }
      }
      var found: ExplorationReport?
      withKnownIssue { found = explore(.random(seed: 11, schedules: 500), build) }
      let failure = try? #require(found?.failure)
      #expect(failure?.replay.hasPrefix("x1:f:") == true)
      var again: ExplorationReport?
      withKnownIssue { again = explore(.random(seed: 11), replay: failure?.replay, build) }
      #expect(again?.failure?.steps == failure?.steps)
    }
  }

  @MainActor @Suite struct ExplorationSamples {
    // sample: wallet-exploration
    @Test func twoPaymentsCanSpendTheSameMoney() {
      var report: ExplorationReport?
      withKnownIssue("the wallet checks, then acts") {
        report = explore(.exhaustive()) { exploration in
          let ledger = LockIsolated(100)  // what the remote ledger holds
          let read = ControlledFunction<Void, Int>("balance read", answers: { ledger.value })
          let write = ControlledFunction<Int, Void>(
            "balance write", answers: { ledger.setValue($0) })
          let wallet = Wallet(
            taskProvider: exploration.provider, balance: { try await read.function(()) },
            setBalance: write.function)
          exploration.action("pay 60") { wallet.pay(60) }
          exploration.action("pay 60") { wallet.pay(60) }
          exploration.atEnd("never pays out more than the account held") {
            wallet.paid.reduce(0, +) <= 100
          }
        }
      }
      #expect(report?.failure?.reason.contains("never pays out more") == true)
    }
    // end sample
  }
}
