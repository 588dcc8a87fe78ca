import IssueReporting
import LockSupport
import TaskProviding
import Testing

#if SwiftDependencies
  import Dependencies
#endif

/// What one test's scope holds: its provider, read by `RecordingTaskProvider.current` and
/// `ManualTaskProvider.current`, and the controlled calls made inside it that are still open.
/// A task local, so tests running in parallel never see each other's; tasks spawned in the
/// test inherit it, which is how a call made by the model's task finds its test.
final class ProviderScope: Sendable {
  @TaskLocal static var current: ProviderScope?

  let provider: any TaskProvider
  /// The open calls in the order they were made: an exploration reads them at every step,
  /// so they are kept in order rather than sorted on each read.
  private let openCalls = Locked<(next: Int, calls: [OpenCall])>((0, []))

  /// A controlled call that has not ended, and how to end it.
  struct OpenCall: Sendable {
    /// Computed only if the test ends with the call open: most calls are answered.
    let describe: @Sendable () -> String
    let end: @Sendable () -> Void
    /// The outcomes the call's function was given to complete it with on its own (its
    /// answer, each allowed failure), for whoever drives the test to pick from. Empty for a
    /// function made without `answers:`.
    var completions: [CallCompletion] = []
    /// Order of opening, so open calls are listed the same way every run.
    var sequence = 0
    /// The task that made the call and waits for it, by its address.
    var caller: UInt?
    /// The call's identity, set as it opens.
    var key: ObjectIdentifier?
  }

  /// One way to complete an open call, and how a person reads it ("answer lookup #0: 1").
  struct CallCompletion: Sendable {
    /// Formatted only when a schedule is narrated.
    let describe: @Sendable () -> String
    let apply: @Sendable () -> Void
    var label: String { describe() }
  }

  init(provider: any TaskProvider) {
    self.provider = provider
  }

  /// The scoped provider of type `P`, or a fresh one and an issue saying why.
  static func provider<P: TaskProvider>(
    _ type: P.Type, trait: String, fallback: () -> P
  ) -> P {
    if let provider = current?.provider as? P { return provider }
    if current?.provider is ExplorationTaskProvider {
      reportIssue(
        """
        \(P.self).current was read in an exploration's scenario, whose provider is \
        `exploration.provider`: an ExplorationTaskProvider, which holds no task, since the \
        explorer starts each task as the runtime would. Use it instead.
        """)
      return fallback()
    }
    reportIssue(
      """
      \(P.self).current was read outside a scope that installs one. Add the trait \
      \(trait) to the test or its suite, or use the provider you created.
      """)
    return fallback()
  }

  func opened(_ key: ObjectIdentifier, _ call: OpenCall) {
    openCalls.withLock { state in
      var call = call
      call.sequence = state.next
      state.next += 1
      call.key = key
      Self.remove(key, from: &state.calls)
      state.calls.append(call)
    }
  }

  func closed(_ key: ObjectIdentifier) {
    openCalls.withLock { state in Self.remove(key, from: &state.calls) }
  }

  /// Removes the call with this key, if open: at most one is, so the loop stops there.
  private static func remove(_ key: ObjectIdentifier, from calls: inout [OpenCall]) {
    var index = 0
    while index < calls.count {
      if let callKey = calls[index].key, callKey == key {
        calls.remove(at: index)
        return
      }
      index += 1
    }
  }

  /// The calls still open, in the order they were made.
  var open: [OpenCall] {
    openCalls.withLock { $0.calls }
  }

  /// Ends every call still open, so the tasks awaiting them can finish; returns them, for a
  /// caller that reports them to describe.
  @discardableResult
  func endOpenCalls() -> [OpenCall] {
    let open = openCalls.withLock { state in
      defer { state.calls = [] }
      return state.calls
    }
    for call in open { call.end() }
    return open
  }
}

extension ProviderScope {
  /// Runs a test body with a provider installed, then checks for leaks: the shared logic of
  /// the Swift Testing traits and `withRecordingTaskProvider`/`withManualTaskProvider`.
  ///
  /// Installs `provider` as `@Dependency(\.taskProvider)` (with the `SwiftDependencies`
  /// trait) and as the scoped provider, and runs `body`. Then: controlled calls made inside
  /// and still unanswered are ended (and reported, if the body succeeded), pending tasks get
  /// `timeout` to finish, and tasks left after that, not already reported by a failed wait,
  /// are reported at `site`; every pending task is cancelled and `release` lets held ones
  /// run, so nothing outlives the test.
  static func run<R>(
    _ provider: some TaskProvider,
    ledger: TaskLedger,
    timeout: Duration,
    at site: CallSite,
    release: () -> Void = {},
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
  ) async rethrows -> R {
    let scope = ProviderScope(provider: provider)
    // Isolated like its caller: a nonisolated local function would hop to the pool and back.
    func settle(bodySucceeded: Bool, isolation: isolated (any Actor)? = #isolation) async {
      let ended = scope.endOpenCalls()
      // Described only when there is something to report: a passing test has no open call.
      if bodySucceeded, !ended.isEmpty {
        let open = ended.map { $0.describe() }.sorted()
        site.report(
          (["The test ended with \(open.count) unanswered controlled calls:"]
            + open.map { "  \($0)" } + ["They have been ended with CancellationError."])
            .joined(separator: "\n"))
      }
      _ = await ledger.wait(for: .settled, timeout: timeout)
      let leaked = ledger.takeLeaks()
      release()
      guard !leaked.isEmpty else { return }
      site.report(
        PendingTasksError.describe(
          leaked, headline: "The test ended with", footer: "They have been cancelled."))
    }
    do {
      // The closure names `isolation`, which makes it isolated to the caller's actor; one
      // that does not would run on the pool, a hop there and back per scope.
      let result = try await ProviderScope.$current.withValue(scope) {
        _ = isolation
        #if SwiftDependencies
          // The values are prepared synchronously and installed through their task local:
          // the async `withDependencies` runs its inner closures on the pool, about a dozen
          // jobs per scope when called from a caller's dynamic isolation, and the synchronous
          // one only adds two task-local bindings around a setter that reads nothing.
          var values = DependencyValues._current
          values.taskProvider = provider
          return try await DependencyValues.$_current.withValue(values) {
            _ = isolation
            return try await body()
          }
        #else
          return try await body()
        #endif
      }
      await settle(bodySucceeded: true)
      return result
    } catch {
      await settle(bodySucceeded: false)
      throw error
    }
  }
}
