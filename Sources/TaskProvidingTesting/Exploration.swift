import IssueReporting
import Synchronization
import TaskProviding

#if SwiftDependencies
  import Dependencies
#endif

/// How ``explore(_:replay:outsideWait:fileID:filePath:line:column:_:)`` makes each choice of a schedule:
/// which held task starts next, which open call completes next and how, and when the
/// exploration's clock moves.
public enum ExplorationStrategy: Sendable, Hashable, CustomStringConvertible {
  /// Every schedule, depth first, up to `limit` of them; the report says whether that was
  /// all of them.
  case exhaustive(limit: Int = 10_000)
  /// `schedules` schedules, each choice drawn uniformly from a generator seeded by `seed`
  /// and the schedule's number.
  case random(seed: UInt64 = 0, schedules: Int = 1_000)
  /// Probabilistic concurrency testing: each task and call gets a random priority when it
  /// first becomes ready, the highest goes first, and at `depth - 1` random steps the one
  /// chosen drops to the lowest priority. Finds a bug that needs `depth` orderings to go
  /// wrong with a probability that does not shrink with the number of choices.
  case pct(seed: UInt64 = 0, schedules: Int = 1_000, depth: Int = 3)

  public var description: String {
    switch self {
    case .exhaustive(let limit): "exhaustive (limit \(limit))"
    case .random(let seed, let schedules): "random (seed \(seed), \(schedules) schedules)"
    case .pct(let seed, let schedules, let depth):
      "PCT (seed \(seed), \(schedules) schedules, depth \(depth))"
    }
  }
}

/// What a scenario can say to its exploration: the properties that must hold.
@MainActor
public final class Exploration {
  /// The provider every spawn of the scenario goes through: it holds each task until the
  /// strategy starts it. Also installed as `@Dependency(\.taskProvider)` and as
  /// `ManualTaskProvider.current`.
  public let provider: ManualTaskProvider
  /// The clock of this schedule: time moves only when the explorer chooses to move it, once
  /// no job can run and no held task waits to start. Also installed as
  /// `@Dependency(\.continuousClock)` and `@Dependency(\.suspendingClock)`.
  public let clock = ExplorationClock()

  fileprivate var invariants: [(name: String, holds: @MainActor () -> Bool)] = []
  fileprivate var finalChecks: [(name: String, holds: @MainActor () -> Bool)] = []
  fileprivate var actions: [(name: String, perform: @MainActor () -> Void)] = []
  fileprivate var nextAction = 0

  fileprivate init(provider: ManualTaskProvider) {
    self.provider = provider
  }

  /// A person's action, taken in the order the scenario lists them, at whatever point of the
  /// schedule the strategy chooses: before, between or after the tasks and calls of the
  /// actions before it.
  ///
  /// - Parameters:
  ///   - name: How a schedule's steps name it ("tap get-fact").
  ///   - perform: The action: call the model, spawn a tap through the provider.
  public func action(_ name: String, _ perform: @escaping @MainActor () -> Void) {
    actions.append((name, perform))
  }

  /// A property that must hold after every step of every schedule, and at the end.
  ///
  /// - Parameters:
  ///   - name: How a failure names it ("isLoading is true iff a request is in flight").
  ///   - holds: Reads the model; `false` fails the schedule.
  public func invariant(_ name: String, _ holds: @escaping @MainActor () -> Bool) {
    invariants.append((name, holds))
  }

  /// A property that must hold once the schedule has run to its end: nothing is held,
  /// nothing is open and the scenario has returned.
  ///
  /// - Parameters:
  ///   - name: How a failure names it ("the fact shown is about the current count").
  ///   - holds: Reads the model; `false` fails the schedule.
  public func atEnd(_ name: String, _ holds: @escaping @MainActor () -> Bool) {
    finalChecks.append((name, holds))
  }
}

/// What an exploration found.
public struct ExplorationReport: Sendable, CustomStringConvertible {
  /// The strategy that chose.
  public let strategy: ExplorationStrategy
  /// How many schedules ran.
  public let schedules: Int
  /// For an exhaustive exploration: whether those were all the schedules there are.
  public let isComplete: Bool
  /// The first schedule that failed, if one did.
  public let failure: ExplorationFailure?

  public var description: String {
    if let failure { return failure.description }
    let all = isComplete ? " (all of them)" : ""
    return "\(strategy): \(schedules) schedules passed\(all)."
  }
}

/// A schedule that broke the scenario: why, the steps that led there, and the string that
/// replays it.
public struct ExplorationFailure: Error, Sendable, CustomStringConvertible {
  /// The strategy that found it.
  public let strategy: ExplorationStrategy
  /// Which schedule it was, from 1.
  public let scheduleNumber: Int
  /// Pass it as `replay:` to run exactly this schedule again.
  public let replay: String
  /// The steps of the schedule, in order, as a person reads them.
  public let steps: [String]
  /// What went wrong.
  public let reason: String

  public var description: String {
    let numbered = steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
    return
      ([
        "Exploration (\(strategy)) failed on schedule \(scheduleNumber): \(reason)",
        "Replay it with explore(…, replay: \"\(replay)\").",
        numbered.isEmpty ? "It failed before the first choice." : "Steps:",
      ] + numbered).joined(separator: "\n")
  }
}

/// Runs `scenario` under many schedules, checking its invariants after every step, and
/// reports the first schedule that breaks one.
///
/// A scenario is a person's actions, with no ordering of answers written in it: it creates
/// the model, lists the actions (``Exploration/action(_:_:)``) and states what must always
/// hold. The explorer then owns every choice that decides the interleaving: when the next
/// action is taken, which held task starts next, and which open call of a
/// ``ControlledFunction`` made with `answers:` completes next, with its answer or one of
/// its allowed failures, and when ``Exploration/clock`` moves to its next deadline. Between choices it runs every job
/// until none is left (under the same runtime hooks as
/// ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)``), so it knows the
/// system is quiescent without waiting for anything.
///
/// ```swift
/// let report = explore(.exhaustive()) { exploration in
///   let search = ControlledFunction<String, [String]>(answers: { [$0] })
///   let model = SearchModel(search: search.function)
///   exploration.action("type sw") { model.queryChanged("sw") }
///   exploration.action("type swift") { model.queryChanged("swift") }
///   exploration.atEnd("shows the last query's results") { model.results == ["swift"] }
/// }
/// #expect(report.failure == nil)
/// ```
///
/// A failing schedule is reported as an issue at the caller's line with the strategy, the
/// readable steps and a replay string; pass that string back as `replay:` to run exactly
/// that schedule again. The same seed gives the same schedules every time, as long as every
/// job comes from the scenario itself.
///
/// Between two choices, jobs run in enqueue order. Job order is not made a choice: while
/// other tests run in the same process, their jobs pass through the same queue, and a
/// choice among ready jobs would then depend on them, so a replay could take another path.
/// The choices are the scenario's own: its actions, its tasks' starts, its calls' outcomes.
///
/// Time is virtual on ``Exploration/clock``: a sleep on it ends when the explorer advances
/// the clock, a choice it offers once no job can run and no held task waits, so timeouts and
/// debounces are explored against answers and actions without waiting.
///
/// Limits: sleeps on other clocks, `Task.sleep` included, keep real time (a schedule with
/// nothing to choose waits up to `outsideWait` for one to end); work on a dispatch queue or a thread of its own is outside the
/// explorer's view; the hooks are process-wide, so every exploring test belongs under one
/// `.serialized` suite.
///
/// - Parameters:
///   - strategy: How each choice is made.
///   - replay: A failure's replay string: runs that one schedule instead.
///   - outsideWait: How long a schedule with nothing to choose, but something unfinished,
///     waits in real time for a job from outside (a sleep ending) before it counts as stuck.
///   - fileID: The file an issue is reported in; the caller's by default.
///   - filePath: The full path of that file.
///   - line: The line an issue is reported at.
///   - column: The column an issue is reported at.
///   - scenario: The actions and the invariants, run once per schedule.
/// - Returns: How many schedules ran, and the first failure, if any (also reported).
@MainActor @discardableResult
public func explore(
  _ strategy: ExplorationStrategy,
  replay: String? = nil,
  outsideWait: Duration = .seconds(2),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ scenario: @escaping @MainActor (Exploration) async throws -> Void
) -> ExplorationReport {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  var explorer = Explorer(strategy: strategy, outsideWait: outsideWait, scenario: scenario)
  let report = explorer.run(replay: replay)
  if let failure = report.failure { site.report(failure.description) }
  return report
}

/// One option at a step of a schedule.
private struct Choice {
  /// The task or call it belongs to, for PCT's priorities.
  let key: String
  let label: String
  let apply: () -> Void
}

/// How one schedule went.
private struct ScheduleRun {
  var jobOrder: JobOrder = .fifo
  var choices: [Int] = []
  var counts: [Int] = []
  var steps: [String] = []
  var failure: String?
}

@MainActor
private struct Explorer {
  let strategy: ExplorationStrategy
  /// How long a schedule with nothing to choose waits for a job from outside.
  let outsideWait: Duration
  let scenario: @MainActor (Exploration) async throws -> Void
  static let maximumSteps = 10_000

  init(
    strategy: ExplorationStrategy, outsideWait: Duration,
    scenario: @escaping @MainActor (Exploration) async throws -> Void
  ) {
    self.strategy = strategy
    self.outsideWait = outsideWait
    self.scenario = scenario
  }

  mutating func run(replay: String?) -> ExplorationReport {
    if let replay {
      guard let (jobOrder, choices) = Self.parse(replay) else {
        return report(1, complete: false, failure: nil, replayError: replay)
      }
      var position = 0
      let run = runSchedule(jobOrder: jobOrder) { count, _ in
        defer { position += 1 }
        return position < choices.count && choices[position] < count ? choices[position] : nil
      }
      return report(1, complete: false, run: run)
    }
    switch strategy {
    case .exhaustive(let limit):
      var prefix: [Int] = []
      var schedules = 0
      while schedules < max(limit, 1) {
        schedules += 1
        var position = 0
        let run = runSchedule(jobOrder: .fifo) { _, _ in
          defer { position += 1 }
          return position < prefix.count ? prefix[position] : 0
        }
        if run.failure != nil { return report(schedules, complete: false, run: run) }
        // The next schedule: the deepest step with an option not yet taken.
        guard let step = run.choices.indices.last(where: { run.choices[$0] + 1 < run.counts[$0] })
        else {
          return ExplorationReport(
            strategy: strategy, schedules: schedules, isComplete: true, failure: nil)
        }
        prefix = Array(run.choices[..<step]) + [run.choices[step] + 1]
      }
      return ExplorationReport(
        strategy: strategy, schedules: schedules, isComplete: false, failure: nil)
    case .random(let seed, let schedules):
      for number in 1...max(schedules, 1) {
        var generator = SplitMix64(seed: Self.mix(seed, number))
        let run = runSchedule(jobOrder: .fifo) { count, _ in
          Int(generator.next() % UInt64(count))
        }
        if run.failure != nil { return report(number, complete: false, run: run) }
      }
      return ExplorationReport(
        strategy: strategy, schedules: max(schedules, 1), isComplete: false, failure: nil)
    case .pct(let seed, let schedules, let depth):
      var longest = 8
      for number in 1...max(schedules, 1) {
        var generator = SplitMix64(seed: Self.mix(seed, number))
        var priorities: [String: Double] = [:]
        let changes = Set(
          (0..<max(depth - 1, 0)).map { _ in Int(generator.next() % UInt64(longest)) })
        var lowest = 0.0
        var step = 0
        let run = runSchedule(jobOrder: .fifo) { _, choices in
          defer { step += 1 }
          for choice in choices where priorities[choice.key] == nil {
            priorities[choice.key] = 1 + Double(generator.next() % 1_000_000) / 1_000_000
          }
          let top = choices.map { priorities[$0.key] ?? 0 }.max() ?? 0
          let best = choices.indices.filter { priorities[choices[$0].key] == top }
          let pick = best[Int(generator.next() % UInt64(best.count))]
          if changes.contains(step) {
            lowest -= 1
            priorities[choices[pick].key] = lowest
          }
          return pick
        }
        longest = max(longest, run.steps.count)
        if run.failure != nil { return report(number, complete: false, run: run) }
      }
      return ExplorationReport(
        strategy: strategy, schedules: max(schedules, 1), isComplete: false, failure: nil)
    }
  }

  private func report(
    _ number: Int, complete: Bool, run: ScheduleRun? = nil, failure: String? = nil,
    replayError: String? = nil
  ) -> ExplorationReport {
    if let replayError {
      return ExplorationReport(
        strategy: strategy, schedules: 0, isComplete: false,
        failure: ExplorationFailure(
          strategy: strategy, scheduleNumber: 0, replay: replayError, steps: [],
          reason: "\"\(replayError)\" is not a replay string (it reads like \"x1:f:0.2.1\")."))
    }
    guard let run, let reason = run.failure else {
      return ExplorationReport(
        strategy: strategy, schedules: number, isComplete: complete, failure: nil)
    }
    return ExplorationReport(
      strategy: strategy, schedules: number, isComplete: false,
      failure: ExplorationFailure(
        strategy: strategy, scheduleNumber: number,
        replay: Self.replayString(run),
        steps: run.steps, reason: reason))
  }

  /// `x1:` then the job order (`f` for enqueue order, `j` and a seed for a random one),
  /// `:`, and the index of the option taken at each step, joined by dots.
  static func replayString(_ run: ScheduleRun) -> String {
    let jobs =
      switch run.jobOrder {
      case .fifo: "f"
      case .random(let seed): "j\(seed)"
      }
    return "x1:\(jobs):" + run.choices.map(String.init).joined(separator: ".")
  }

  static func parse(_ replay: String) -> (JobOrder, [Int])? {
    let fields = replay.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 3, fields[0] == "x1" else { return nil }
    let jobOrder: JobOrder
    if fields[1] == "f" {
      jobOrder = .fifo
    } else if fields[1].hasPrefix("j"), let seed = UInt64(fields[1].dropFirst()) {
      jobOrder = .random(seed: seed)
    } else {
      return nil
    }
    if fields[2].isEmpty { return (jobOrder, []) }
    var choices: [Int] = []
    for part in fields[2].split(separator: ".", omittingEmptySubsequences: false) {
      guard let choice = Int(part), choice >= 0 else { return nil }
      choices.append(choice)
    }
    return (jobOrder, choices)
  }

  static func mix(_ seed: UInt64, _ number: Int) -> UInt64 {
    var generator = SplitMix64(seed: seed ^ (UInt64(number) &* 0x9E37_79B9_7F4A_7C15))
    return generator.next()
  }

  /// Runs the scenario once; `choose` picks an option index given how many there are and
  /// what they are, or `nil` when a replay runs out.
  private func runSchedule(
    jobOrder: JobOrder, _ choose: (Int, [Choice]) -> Int?
  ) -> ScheduleRun {
    let queue = JobQueue.shared
    guard queue.enter() else {
      var run = ScheduleRun()
      run.failure =
        "exploring needs the concurrency runtime's enqueue hooks, which it does not export"
      return run
    }
    defer { queue.exit() }
    let provider = ManualTaskProvider()
    let scope = TestScope(provider: provider)
    let exploration = Exploration(provider: provider)
    let ended = Atomic(false)
    let thrown = Mutex<String?>(nil)
    let scenario = scenario
    let body = TestScope.$current.withValue(scope) {
      Self.installingDependencies(exploration) {
        Task { @MainActor in
          do { try await scenario(exploration) } catch { thrown.withLock { $0 = "\(error)" } }
          ended.store(true, ordering: .releasing)
        }
      }
    }
    var run = ScheduleRun()
    run.jobOrder = jobOrder
    var order = JobPicker(jobOrder)
    var jobs = 0
    func settle() {
      _ = queue.drain(until: .now, ended: { false }, order: &order, jobsRun: &jobs)
    }
    /// Waits, in real time, for one job from outside (a sleep ending, a timer): what a
    /// scenario that sleeps needs when nothing else can run.
    func awaitOutsideJob() -> Bool {
      queue.drain(
        until: .now + outsideWait, ended: { false }, order: &order, jobsRun: &jobs,
        stopAfter: 1)
    }
    defer {
      // Leave nothing behind: end open calls, cancel and release held tasks, let them run;
      // what they do once released may open more, so a few rounds.
      body.cancel()
      for _ in 0..<4 {
        _ = scope.endOpenCalls()
        provider.cancelAll()
        exploration.clock.cancelAll()
        provider.releaseAll()
        settle()
      }
    }
    while true {
      settle()
      if let error = thrown.withLock({ $0 }) {
        run.failure = "the scenario threw \(error)"
        return run
      }
      if let broken = exploration.invariants.first(where: { !$0.holds() }) {
        run.failure = "\"\(broken.name)\" did not hold" + Self.after(run.steps.count)
        return run
      }
      let choices = Self.choices(provider: provider, scope: scope, exploration: exploration)
      if choices.isEmpty {
        let finished = ended.load(ordering: .acquiring) && provider.pendingCount == 0
        // Nothing to choose, yet something is unfinished: a sleep or a timer may still
        // bring a job. Real time passes here; a schedule that never sleeps never waits.
        if !finished, awaitOutsideJob() { continue }
        guard ended.load(ordering: .acquiring) else {
          run.failure =
            "nothing can run and the scenario has not returned" + Self.after(run.steps.count)
            + "; it may await something no task or call will give"
          return run
        }
        let stuck = provider.pendingRecords
        guard stuck.isEmpty else {
          run.failure =
            "nothing can run" + Self.after(run.steps.count) + ", yet tasks are still pending: "
            + stuck.map(\.description).joined(separator: "; ")
            + " (they may await a call of a function made without `answers:`)"
          return run
        }
        if let broken = exploration.finalChecks.first(where: { !$0.holds() }) {
          run.failure = "\"\(broken.name)\" did not hold at the end"
        }
        return run
      }
      guard run.steps.count < Self.maximumSteps else {
        run.failure = "the schedule did not end within \(Self.maximumSteps) steps"
        return run
      }
      guard let pick = choose(choices.count, choices) else {
        run.failure =
          "the replay string ended at step \(run.steps.count + 1), or names an option that is not there"
        return run
      }
      run.choices.append(pick)
      run.counts.append(choices.count)
      run.steps.append(choices[pick].label)
      choices[pick].apply()
    }
  }

  private static func after(_ steps: Int) -> String {
    steps == 0 ? " before the first choice" : " after step \(steps)"
  }

  /// The options at this step: every held task, then every open call's outcomes, oldest
  /// first, so a schedule's indices mean the same thing in every run.
  private static func choices(
    provider: ManualTaskProvider, scope: TestScope, exploration: Exploration
  ) -> [Choice] {
    var choices: [Choice] = []
    if exploration.nextAction < exploration.actions.count {
      let action = exploration.actions[exploration.nextAction]
      choices.append(
        Choice(
          key: "action", label: action.name,
          apply: {
            exploration.nextAction += 1
            // In the scenario's scope, so what the action spawns inherits it: the calls its
            // tasks make are then the exploration's to complete.
            TestScope.$current.withValue(scope) {
              installingDependencies(exploration) { action.perform() }
            }
          }))
    }
    for index in provider.heldIndices {
      let record = provider.ledger.record(index)
      let name = record.name.map { " '\($0)'" } ?? ""
      choices.append(
        Choice(
          key: "task \(index)", label: "start task #\(index)\(name) (\(record.location))",
          apply: { provider.release(index) }))
    }
    for call in scope.open {
      for outcome in call.outcomes {
        choices.append(
          Choice(key: "call \(call.sequence)", label: outcome.label, apply: outcome.apply))
      }
    }
    // Time passes only when nothing that is ready waits: a held task would start long
    // before any sleep ends. An answer or the next action may come before or after it.
    if provider.heldIndices.isEmpty, let wake = exploration.clock.nextWake {
      let clock = exploration.clock
      let sleeps = wake.sleepers == 1 ? "1 sleep" : "\(wake.sleepers) sleeps"
      choices.append(
        Choice(
          key: "clock", label: "advance the clock to \(wake.deadline), ending \(sleeps)",
          apply: { clock.advance(to: wake.deadline) }))
    }
    return choices
  }

  private static func installingDependencies<R>(
    _ exploration: Exploration, _ body: () -> R
  ) -> R {
    #if SwiftDependencies
      let values = withDependencies {
        $0.taskProvider = exploration.provider
        $0.continuousClock = exploration.clock
        $0.suspendingClock = exploration.clock
      } operation: {
        DependencyValues._current
      }
      return DependencyValues.$_current.withValue(values, operation: body)
    #else
      return body()
    #endif
  }
}
