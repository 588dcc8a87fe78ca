import Testing

/// A Swift Testing trait that runs a test, unchanged, under many schedules of the tasks it
/// starts, with the test's own expectations as the checks.
///
/// The test's body is the scenario: every task it starts (through a provider, with
/// `Task { }`, `async let` or a task group), every `await` where more than one job is ready,
/// and when each of its sleeps ends, in the order of virtual time, are the explorer's
/// choices, as in `explore`. A sleep also takes at least its real time, as on the runtime,
/// since a test may time it with a real clock or wait in it for work on another thread. The
/// first
/// schedule in which the body records an issue (`#expect`, `#require`, `Issue.record`, a
/// thrown error, an issue reported through IssueReporting) is the failure: the test fails
/// once, with that schedule's issues, its steps and the string that replays it. Issues of the
/// schedules the search ran to find and shrink it are not reported.
///
/// ```swift
/// @Test(.exploring()) func bothTapsCount() async {
///   let counter = Counter()
///   async let first: Void = counter.tap()
///   async let second: Void = counter.tap()
///   _ = await (first, second)
///   #expect(await counter.value == 2)
/// }
/// ```
///
/// On a suite, it explores each of its tests, and each case of a parameterized one. The
/// exploration runs in the test's process: a schedule that traps ends the test run. The test
/// keeps its own dependencies and provider; ``Testing/Trait/recordingTaskProvider`` and
/// ``Testing/Trait/manualTaskProvider`` give each schedule a fresh provider, wherever they are
/// among the traits, and ``Testing/Trait/serialScheduler`` does nothing beside it.
public struct ExploringTrait: TestTrait, SuiteTrait, TestScoping {
  /// How each choice is made.
  public let strategy: ExplorationStrategy
  /// A failure's replay string: the trait then runs that one schedule.
  public let replay: String?

  /// Applied to a suite, it explores each test in it.
  public var isRecursive: Bool { true }

  /// Whether `test` is explored as written, by this trait on it or on a suite around it.
  static func explores(_ test: Test) -> Bool {
    test.traits.contains { $0 is ExploringTrait }
  }

  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite's own scope runs its tests, each explored in its own scope.
    guard testCase != nil else { return try await function() }
    await withoutActuallyEscaping(function) { function in
      // The toolkit's provider traits give each schedule a fresh provider, in their order.
      let providers = test.traits.compactMap { $0 as? TaskProviderTrait }
      let body = providers.reversed().reduce(function) { inner, provider in
        { try await provider.provideScopeOfOneRun(for: test, performing: inner) }
      }
      let host = SwiftTestingHost(test: test, testCase: testCase, body: body)
      await ExploredTest(host: host, strategy: strategy, replay: replay).run()
    }
  }
}

extension Trait where Self == ExploringTrait {
  /// Runs the test under many schedules of the tasks it starts, chosen by `strategy`; the
  /// first schedule in which the test records an issue is its failure.
  ///
  /// The default strategy runs every schedule of a typical unit test, up to a thousand.
  public static func exploring(_ strategy: ExplorationStrategy = .exhaustive(limit: 1_000))
    -> Self
  {
    ExploringTrait(strategy: strategy, replay: nil)
  }

  /// Runs the test once, in the schedule `replay` names: the string a failure of
  /// ``Testing/Trait/exploring(_:)`` gave.
  public static func exploring(replay: String) -> Self {
    ExploringTrait(strategy: .exhaustive(limit: 1_000), replay: replay)
  }
}
