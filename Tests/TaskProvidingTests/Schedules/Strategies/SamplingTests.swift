import SuiteSupport
import Synchronization
import TaskProvidingTesting
import Testing

/// Partial order sampling and the uniform walk find what a walk that draws afresh at every
/// step finds only rarely: one task held back while another takes many steps. Their
/// schedules replay, and the same seed gives the same schedules.
@MainActor @Suite(.exploresInProcess) struct SamplingTests {
  /// Steps counted, and whether the write saw all ten of them.
  final class Ledger: Sendable {
    let steps = Mutex(0)
    let writtenLast = Mutex(false)
  }

  /// An actor a task visits for each of its steps.
  actor Desk {
    func visit() {}
  }

  /// A writer, one job, and a task that takes ten steps, each through an actor and back:
  /// the check fails only where the writer is held back behind every step. A walk that
  /// draws each choice uniformly holds it back with a chance of about one in a million a
  /// schedule; the uniform walk, about one in twenty; partial order sampling, more.
  static func writeHeldBackBehindTenSteps(_ exploration: Exploration) async {
    let ledger = Ledger()
    let desk = Desk()
    let writer = Task.detached(name: "writer") {
      let steps = ledger.steps.withLock { $0 }
      ledger.writtenLast.withLock { $0 = steps == 10 }
    }
    let stepper = Task.detached(name: "stepper") {
      for _ in 0..<10 {
        await desk.visit()
        ledger.steps.withLock { $0 += 1 }
      }
    }
    await writer.value
    await stepper.value
    let last = ledger.writtenLast.withLock { $0 }
    exploration.atEnd("the write did not come after every step") { !last }
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5])
  func bothSamplersFindAWriteHeldBackBehindTenSteps(seed: UInt64) async throws {
    for strategy in [
      ExplorationStrategy.pos(seed: seed, schedules: 100),
      .uniformWalk(seed: seed, schedules: 100),
    ] {
      var report: ExplorationReport?
      await withKnownIssue {
        report = await explore(strategy, Self.writeHeldBackBehindTenSteps)
      }
      let failure = try #require(report?.failure, "\(strategy)")
      // The failure replays from its string, under any strategy.
      var replayed: ExplorationReport?
      await withKnownIssue {
        replayed = await explore(
          .exhaustive(), replay: failure.replay, Self.writeHeldBackBehindTenSteps)
      }
      #expect(replayed?.failure?.reason == failure.reason, "\(strategy)")
    }
  }

  /// The same seed, the same schedules: the schedule that fails first is the same each time.
  @Test func aSeedGivesTheSameSchedulesEveryTime() async {
    for strategy in [
      ExplorationStrategy.pos(seed: 7, schedules: 300), .uniformWalk(seed: 7, schedules: 300),
    ] {
      var numbers: [Int?] = []
      for _ in 0..<2 {
        await withKnownIssue(isIntermittent: true) {
          numbers.append(
            await explore(strategy, Self.writeHeldBackBehindTenSteps).failure?.scheduleNumber)
        }
      }
      #expect(numbers.count == 2 && numbers[0] != nil && numbers[0] == numbers[1], "\(strategy)")
    }
  }

  /// A scenario with no bug runs every schedule it was asked for, and says so.
  @Test func aPassingScenarioRunsEveryScheduleAskedFor() async {
    for strategy in [
      ExplorationStrategy.pos(seed: 1, schedules: 40), .uniformWalk(seed: 1, schedules: 40),
    ] {
      let report = await explore(strategy) { exploration in
        let ledger = Ledger()
        let desk = Desk()
        let steppers = (0..<2).map { _ in
          Task.detached {
            await desk.visit()
            ledger.steps.withLock { $0 += 1 }
          }
        }
        for stepper in steppers { await stepper.value }
        let steps = ledger.steps.withLock { $0 }
        exploration.atEnd("both stepped") { steps == 2 }
      }
      #expect(report.failure == nil)
      #expect(report.schedules == 40)
      #expect(!report.isComplete)
    }
    #expect(
      ExplorationStrategy.pos(seed: 2, schedules: 5).description == "POS (seed 2, 5 schedules)")
    #expect(
      ExplorationStrategy.uniformWalk(seed: 2, schedules: 5).description
        == "uniform walk (seed 2, 5 schedules)")
  }

  /// For comparison: the walk that draws each choice uniformly does not find it in as many
  /// schedules with these seeds.
  @Test func aUniformDrawAtEachStepRarelyHoldsTheWriterBack() async {
    var found = 0
    for seed in UInt64(1)...5 {
      await withKnownIssue(isIntermittent: true) {
        let report = await explore(
          .random(seed: seed, schedules: 100), Self.writeHeldBackBehindTenSteps)
        if report.failure != nil { found += 1 }
      }
    }
    // Where the scenario's plain tasks are not seen being created, their hops between actors
    // run inline, fewer steps stand between the writer and its check, and any walk finds it.
    #expect(found <= 2 || !LinuxFacilities.seeTaskCreation)
  }
}
