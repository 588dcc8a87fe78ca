import Dependencies
import Dispatch
import LockSupport
import TaskProviding
import Testing

@testable import TaskProvidingTesting

/// An account whose deposit reads, awaits, then writes: two deposits at once can lose one.
private actor Ledger {
  private(set) var balance = 0
  private let audit = Audit()

  func depositLosingUpdates(_ amount: Int) async {
    let read = balance
    await audit.note(amount)
    balance = read + amount
  }

  func deposit(_ amount: Int) async {
    balance += amount
    await audit.note(amount)
  }
}

private actor Audit {
  private(set) var notes: [Int] = []
  func note(_ amount: Int) { notes.append(amount) }
}

/// The `exploring` trait, run on test bodies given to it as Swift Testing gives them, so that
/// what it reports can be read: the failure of a flawed body, once; nothing for a correct one.
@Suite struct ExploringTraitTests {
  /// Runs `body` as a test under `trait`, and returns the issues it reported, which then
  /// fail nothing: an issue handler outside the trait's takes them as they come out of it.
  static func issues(
    under trait: ExploringTrait, _ body: @escaping @Sendable () async throws -> Void
  ) async throws -> [Issue] {
    let recorded = Locked<[Issue]>([])
    let test = try #require(Test.current)
    let testCase = Test.Case.current
    let outside = IssueHandlingTrait.compactMapIssues { issue in
      recorded.withLock { $0.append(issue) }
      return nil
    }
    try await outside.provideScope(for: test, testCase: testCase) {
      try await trait.provideScope(for: test, testCase: testCase, performing: body)
    }
    return recorded.withLock { $0 }
  }

  @Test func aLostUpdateFailsTheTestOnceWhereItsExpectationIs() async throws {
    let runs = Locked(0)
    let issues = try await Self.issues(under: .exploring()) {
      runs.withLock { $0 += 1 }
      let ledger = Ledger()
      async let first: Void = ledger.depositLosingUpdates(1)
      async let second: Void = ledger.depositLosingUpdates(2)
      _ = await (first, second)
      #expect(await ledger.balance == 3)
    }
    let failure = try #require(issues.first)
    #expect(issues.count == 1)
    #expect(failure.sourceLocation?.fileID == #fileID)
    let text = failure.description
    #expect(text.contains("Expectation failed"))
    #expect(text.contains("the test failed on schedule"))
    #expect(text.contains("Replay it with .exploring(replay: \"x2:"))
    #expect(text.contains("Run plainly"))
    #expect(text.contains("Steps:"))
    #expect(runs.withLock { $0 } > 1)
  }

  @Test func aCorrectBodyReportsNothingAndRunsUnderManySchedules() async throws {
    let runs = Locked(0)
    let issues = try await Self.issues(under: .exploring()) {
      runs.withLock { $0 += 1 }
      let ledger = Ledger()
      async let first: Void = ledger.deposit(1)
      async let second: Void = ledger.deposit(2)
      _ = await (first, second)
      #expect(await ledger.balance == 3)
    }
    #expect(issues.isEmpty)
    #expect(runs.withLock { $0 } > 1)
  }

  @Test func aReplayRunsTheScheduleItNames() async throws {
    let body: @Sendable () async throws -> Void = {
      let ledger = Ledger()
      let first = Task { await ledger.depositLosingUpdates(1) }
      let second = Task { await ledger.depositLosingUpdates(2) }
      _ = await (first.value, second.value)
      #expect(await ledger.balance == 3)
    }
    let found = try #require(try await Self.issues(under: .exploring(), body).first)
    let replay = try #require(
      found.description.split(separator: "\"").first { $0.hasPrefix("x2:") })
    let replayed = try #require(
      try await Self.issues(under: .exploring(replay: String(replay)), body).first)
    #expect(replayed.description.contains("the test failed on schedule 1."))
    #expect(replayed.description.contains("Expectation failed"))
  }

  @Test func anErrorTheBodyThrowsIsTheFailure() async throws {
    struct Overdrawn: Error {}
    let issues = try await Self.issues(under: .exploring()) {
      let ledger = Ledger()
      async let first: Void = ledger.depositLosingUpdates(1)
      async let second: Void = ledger.depositLosingUpdates(2)
      _ = await (first, second)
      if await ledger.balance != 3 { throw Overdrawn() }
    }
    let failure = try #require(issues.first)
    #expect(issues.count == 1)
    #expect(failure.description.contains("The test threw Overdrawn()"))
  }
}

extension ExploringTraitTests {
  /// A test that times a sleep with a real clock passes, as it does plainly: under the trait a
  /// sleep ends no sooner in real time than on the runtime.
  @Test func aSleepTimedWithARealClockTakesItsTime() async throws {
    let issues = try await Self.issues(under: .exploring()) {
      let clock = ContinuousClock()
      let start = clock.now
      try await Task.sleep(for: .milliseconds(5))  // virtual time
      #expect(clock.now - start >= .milliseconds(5))
    }
    #expect(issues.isEmpty)
  }

  /// A test that polls, sleeping, for work on a dispatch queue passes, as it does plainly: its
  /// polls take the real time they take on the runtime, so the work comes within them.
  @Test func aPollForWorkOnAQueueGetsTheTimeItHasPlainly() async throws {
    let issues = try await Self.issues(under: .exploring(.pct(seed: 1, schedules: 3))) {
      let done = Locked(false)
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
        done.withLock { $0 = true }
      }
      var polls = 0
      while !done.withLock({ $0 }), polls < 1_000 {
        try await Task.sleep(for: .milliseconds(1))  // virtual time
        polls += 1
      }
      #expect(done.withLock { $0 })
    }
    #expect(issues.filter(\.isFailure).isEmpty)
  }

  /// A sleep still under way when the test returns is not waited for: it goes on in real
  /// time after the schedule, as after a plain run, so each schedule ends with the test.
  @Test(.timeLimit(.minutes(1))) func aSleepLeftUnderWayWhenTheTestReturnsIsNotWaitedFor()
    async throws
  {
    let issues = try await Self.issues(under: .exploring()) {
      let ledger = Ledger()
      Task {
        try await Task.sleep(for: .seconds(40))  // virtual time
        await ledger.deposit(1)
      }
      await ledger.deposit(2)
      #expect(await ledger.balance >= 2)
    }
    #expect(issues.isEmpty)
  }

  /// An explored test whose task is cancelled (its time limit passed) stops between two
  /// schedules, and reports nothing of its own.
  @Test func aCancelledExplorationStopsBetweenSchedules() async throws {
    let runs = Locked(0)
    let exploring = Locked<Task<[Issue], any Error>?>(nil)
    // The task explores only once its handle is kept, so that its body can cancel it.
    let (kept, keep) = AsyncStream.makeStream(of: Void.self)
    let outside = Task {
      for await _ in kept { break }
      return try await Self.issues(under: .exploring()) {
        let run = runs.withLock { count -> Int in
          count += 1
          return count
        }
        if run == 2 { exploring.withLock { $0?.cancel() } }
        let ledger = Ledger()
        async let first: Void = ledger.deposit(1)
        async let second: Void = ledger.deposit(2)
        _ = await (first, second)
        #expect(await ledger.balance == 3)
      }
    }
    exploring.withLock { $0 = outside }
    keep.yield()
    keep.finish()
    let issues = try await outside.value
    #expect(issues.isEmpty)
    #expect(runs.withLock { $0 } == 2)
  }
}

/// Tests written with no thought of the explorer, under the trait: each passes in every
/// schedule.
@Suite(.exploring()) struct ExploredAsWrittenTests {
  @Test func tasksThatEachAwaitAnActor() async {
    let ledger = Ledger()
    let deposits = (1...2).map { amount in Task { await ledger.deposit(amount) } }
    for deposit in deposits { await deposit.value }
    #expect(await ledger.balance == 3)
  }

  @Test(arguments: [1, 2, 3]) func eachCaseOfAParameterizedTest(amount: Int) async {
    let ledger = Ledger()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<amount { group.addTask { await ledger.deposit(amount) } }
    }
    #expect(await ledger.balance == amount * amount)
  }

  @MainActor @Test func aMainActorTestThatSleeps() async throws {
    var woke = false
    let sleeper = Task {
      try await Task.sleep(for: .milliseconds(10))  // virtual time
      woke = true
    }
    try await sleeper.value
    #expect(woke)
  }
}

/// The toolkit's other traits beside `exploring`, in either order: each schedule gets a fresh
/// provider, and the test keeps the dependencies it would have plainly.
extension ExploredAsWrittenTests {
  /// Spawns two deposits through the test's provider, waits for them, and checks that the
  /// provider recorded this run's two tasks and no earlier schedule's.
  static func depositThroughTheRecordingProvider() async throws {
    let provider = RecordingTaskProvider.current
    let ledger = Ledger()
    provider.task(name: "first") { await ledger.deposit(1) }
    provider.task(name: "second") { await ledger.deposit(2) }
    try await provider.waitForAll()
    #expect(provider.records.map(\.name) == ["first", "second"])
    #expect(await ledger.balance == 3)
  }

  @Test(.recordingTaskProvider) func aProviderTraitAfterGivesEachScheduleAFreshProvider()
    async throws
  {
    try await Self.depositThroughTheRecordingProvider()
  }

  @Test func theTestKeepsItsOwnTaskProviderDependency() {
    @Dependency(\.taskProvider) var provider
    // Plainly, a test that sets none gets the dependency's test value.
    #expect(provider is UnimplementedTaskProvider)
  }

  @Test(.serialScheduler) func aSerialSchedulerTraitLeavesTheOrderToTheExplorer() async {
    let ledger = Ledger()
    async let first: Void = ledger.deposit(1)
    async let second: Void = ledger.deposit(2)
    _ = await (first, second)
    #expect(await ledger.balance == 3)
  }
}

/// A provider trait listed before `exploring`, whose scope Swift Testing puts around it.
@Suite(.recordingTaskProvider, .exploring()) struct ProviderTraitBeforeExploringTests {
  @Test func eachScheduleHasAFreshProvider() async throws {
    try await ExploredAsWrittenTests.depositThroughTheRecordingProvider()
  }
}
