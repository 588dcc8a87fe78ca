import LockSupport
import Testing

/// Where an exploration runs: first in a child process of the test binary, so that a schedule
/// that traps (a continuation resumed twice, a failed `precondition`, a force-unwrapped `nil`)
/// or a job that never returns is reported like any failing schedule, and the test run goes
/// on; then, if no schedule ended the child, in the test process.
///
/// A trap cannot be caught in the process it happens in: the runtime's state at that point
/// (the task and executor the thread was running, the locks the failing code held) cannot be
/// unwound. So under Swift Testing and XCTest on Linux, `explore` starts the test binary
/// again, filtered to the test that called it, and the child runs the test up to the same `explore` call
/// (earlier calls of the same test are handed the reports they gave here) and explores
/// there, writing as it goes which schedule it runs. When the child dies, the test process
/// knows the schedule and reads why from the child's standard error; further children shrink
/// the schedule and narrate its steps up to the trap. When the child ends normally, the test
/// process explores itself, so that what the scenario leaves behind is the test's to read.
///
/// Explorations run in process only when the test cannot be run again on its own: in a
/// parameterized test (its cases cannot be narrated apart from outside), in an exit test's
/// child, elsewhere than Linux, outside a test, in a test with the `exploresInProcess` trait,
/// or when `TASK_PROVIDING_EXPLORE_IN_PROCESS=1` is set. If the child never reaches the call
/// (the test takes another path when run alone), the exploration runs in process too.
@MainActor
package enum ExplorationProcess {
  /// Set to `1` to explore in the test process (faster to start; a trap ends the test run).
  static let inProcessVariable = "TASK_PROVIDING_EXPLORE_IN_PROCESS"

  /// The reports of the explorations each test has run so far, in order.
  private static var earlier: [String: [ReportPayload]] = [:]
  /// In a child: how many explorations each test has reached.
  private static var reached: [String: Int] = [:]

  /// Whether this process is a child exploring for a test process.
  static var isChild: Bool { ChildRequest.current != nil }

  /// Outside a test, the exploration `body` runs and the arguments that make a copy of this
  /// program run it again, and nothing before it: a program that is not a test (a benchmark)
  /// then explores in a child first, as a test does.
  private static var programRoute: (exploration: String, arguments: [String])?

  /// Runs `body`, whose `explore` calls outside a test take the child route: the child is
  /// this program started with `arguments`, which must call this again with the same
  /// `exploration` and the same `explore` calls.
  package static func withChildRoute<R>(
    exploration: String, arguments: [String], _ body: () throws -> R
  ) rethrows -> R {
    let saved = programRoute
    let key = "program " + exploration
    programRoute = (key, arguments)
    // Each run of `body` is a run of the test anew: its calls count from the first again.
    earlier[key] = nil
    reached[key] = nil
    defer { programRoute = saved }
    return try body()
  }

  /// Runs the exploration `make` builds where it belongs, and returns its report, holding the
  /// main actor throughout, the wait for a child included.
  static func run(
    replay: String?, site: CallSite, strategy: ExplorationStrategy,
    _ make: (ExplorationProgress?) -> Explorer
  ) -> ExplorationReport {
    let replay = ReplayFromEnvironment.replay(for: site) ?? replay
    if let request = ChildRequest.current {
      return serve(request, replay: replay, site: site, strategy: strategy, make)
    }
    guard let call = childCall(site: site) else { return make(nil).run(replay: replay) }
    // Where nothing traps, the test process explores as well, after the child: what the
    // scenario leaves behind (a value it records, a file it writes) is then the test's to read.
    let report =
      trapReport(of: call, replay: replay, strategy: strategy) ?? make(nil).run(replay: replay)
    return recorded(report, of: call)
  }

  /// Runs the exploration `make` builds where it belongs, and returns its report, giving the
  /// main actor back between schedules and while a child explores.
  static func run(
    replay: String?, site: CallSite, strategy: ExplorationStrategy,
    _ make: (ExplorationProgress?) -> Explorer
  ) async -> ExplorationReport {
    let replay = ReplayFromEnvironment.replay(for: site) ?? replay
    // A child serves one call and ends: the test beside it is filtered out.
    if let request = ChildRequest.current {
      return serve(request, replay: replay, site: site, strategy: strategy, make)
    }
    guard let call = childCall(site: site) else { return await make(nil).run(replay: replay) }
    let trapped = await ThreadOfItsOwn.run {
      trapReport(of: call, replay: replay, strategy: strategy)
    }
    if let trapped { return recorded(trapped, of: call) }
    return recorded(await make(nil).run(replay: replay), of: call)
  }

  /// The call to explore first in a child, or `nil` to explore in process.
  private static func childCall(site: CallSite) -> ChildCall? {
    guard let (test, arguments) = isolatedTest() else { return nil }
    return ChildCall(
      test: test, site: site.key, occurrence: earlier[test, default: []].count,
      earlier: earlier[test] ?? [], arguments: arguments)
  }

  /// `report`, kept as the report of `call`, which a child running the test again is handed.
  private static func recorded(_ report: ExplorationReport, of call: ChildCall) -> ExplorationReport
  {
    earlier[call.test, default: []].append(ReportPayload(report))
    return report
  }

  /// The test to run again in a child, and the test binary's arguments that run it alone;
  /// `nil` to explore in process.
  private static func isolatedTest() -> (test: String, arguments: [String])? {
    #if os(Linux) && !TP_NO_CHILD_PROCESS
      guard !ExplorationRoute.inProcess,
        environmentValue(inProcessVariable) != "1",
        ExitTest.current == nil
      else { return nil }
      if let test = Test.current {
        guard !test.isParameterized, Test.Case.current?.isParameterized != true else {
          return nil
        }
        let id = test.id.description
        return (id, ["--testing-library", "swift-testing", "--filter", "^" + escaped(id) + "$"])
      }
      #if canImport(XCTest)
        // XCTest's binary takes a test to run alone as `Module.Class/testMethod`.
        if let selector = CurrentXCTest.selector { return (xcTestKey(selector), [selector]) }
      #endif
      return programRoute.map { ($0.exploration, $0.arguments) }
    #else
      return nil
    #endif
  }

  /// The test running now, as ``ChildCall/test`` names it.
  private static var currentTest: String? {
    if let test = Test.current { return test.id.description }
    #if os(Linux) && canImport(XCTest) && !TP_NO_CHILD_PROCESS
      if let selector = CurrentXCTest.selector { return xcTestKey(selector) }
    #endif
    return programRoute?.exploration
  }

  private static func xcTestKey(_ selector: String) -> String { "XCTest " + selector }

  /// `text` as a regular expression that matches it alone.
  private static func escaped(_ text: String) -> String {
    var pattern = ""
    for character in text {
      if "\\^$.|?*+()[]{}".contains(character) { pattern.append("\\") }
      pattern.append(character)
    }
    return pattern
  }

  // MARK: The test process

  /// The exploration `call` names, run first in a child: the report of the schedule that
  /// ended the child, or `nil` if none did (or the child never reached the call). It only
  /// waits for children, so it may run on any thread.
  private nonisolated static func trapReport(
    of call: ChildCall, replay: String?, strategy: ExplorationStrategy
  ) -> ExplorationReport? {
    let first = ChildProcess.run(call, mode: .explore)
    if first.report != nil { return nil }
    guard first.reachedCall else {
      // The child ended without reaching the call: the test takes another path when it runs
      // alone. Explore here, unless the child died on the way, which would kill this process.
      if case .signaled = first.ending {
        return failed(
          strategy: strategy, number: 0, departures: [], steps: [],
          reason: "the test, run again in a child process to explore, died before it reached"
            + " this call: " + first.death.reason)
      }
      return nil
    }
    let schedules = first.schedules
    var best = first.departuresOfLastSchedule()
    let death = first.death
    // A job that never returned ended the child; running it again would wait as long again.
    guard !death.isWatchdog, let trap = death.trap else {
      return failed(
        strategy: strategy, number: schedules, departures: best, steps: [], reason: death.reason)
    }
    // A replay runs the schedule it names, as it is.
    if replay == nil { best = shrink(best, dyingAs: trap, call: call) }
    let narrated = ChildProcess.run(call, mode: .narrate(schedule: best))
    let steps = narrated.steps ?? []
    return failed(
      strategy: strategy, number: schedules, departures: best, steps: steps,
      reason: death.reason)
  }

  /// A trapping schedule shrunk, as ``FailureShrinker`` shrinks others: each child tries the
  /// candidates from where the last one died, and a candidate that traps the same way and is
  /// nearer the default order becomes the schedule to shrink.
  private nonisolated static func shrink(
    _ departures: [ReplayString.Departure], dyingAs trap: String, call: ChildCall
  ) -> [ReplayString.Departure] {
    var best = departures
    var start = 0
    var budget = 300
    var children = 0
    while budget > 0, children < 40 {
      children += 1
      let child = ChildProcess.run(call, mode: .shrink(schedule: best, start: start))
      let tried = child.candidates
      budget -= tried.count
      guard !child.messages.contains(.candidatesRan), let index = tried.last,
        child.death.trap == trap
      else { break }
      let candidate = child.departuresOfLastSchedule(afterCandidate: index)
      if TrapCandidates.improves(candidate, on: best) {
        best = candidate
        start = 0
      } else {
        start = index + 1
      }
    }
    return best
  }

  private nonisolated static func failed(
    strategy: ExplorationStrategy, number: Int, departures: [ReplayString.Departure],
    steps: [String], reason: String
  ) -> ExplorationReport {
    .failed(
      strategy: strategy, schedules: number, scheduleNumber: max(number, 1),
      replay: ReplayString.encode(departures), steps: steps, reason: reason,
      departures: departures.count)
  }

  // MARK: The child

  /// In a child: the call it was started for explores and ends the process; the same test's
  /// earlier calls return the reports they gave in the test process; anything else explores
  /// in process.
  private static func serve(
    _ request: ChildRequest, replay: String?, site: CallSite, strategy: ExplorationStrategy,
    _ make: (ExplorationProgress?) -> Explorer
  ) -> ExplorationReport {
    guard let test = currentTest, test == request.call.test else {
      return make(nil).run(replay: replay)
    }
    // Every exploration of the test counts, wherever it is called from, as in the test
    // process.
    let occurrence = reached[test, default: 0]
    reached[test] = occurrence + 1
    if occurrence < request.call.occurrence, request.call.earlier.indices.contains(occurrence) {
      return request.call.earlier[occurrence].report(strategy: strategy)
    }
    guard occurrence == request.call.occurrence, site.key == request.call.site,
      let progress = ExplorationProgress(path: request.output)
    else {
      // The test took another path alone: end the child, and the test process explores.
      exitChild(0)
    }
    let explorer = make(progress)
    // A job that never returns ends the child: the test process hears it as a message.
    JobWatchdog.tellBeforeEnding { progress.send(.jobNeverReturned($0)) }
    switch request.mode {
    case .shrink(let schedule, let start):
      let candidates = TrapCandidates.of(schedule)
      for index in candidates.indices.dropFirst(start) {
        progress.candidateBegins(index)
        explorer.runLeniently(candidates[index])
      }
      progress.send(.candidatesRan)
    case .narrate(let schedule):
      LastWords.install {
        if let steps = progress.narrator?.steps() { progress.send(.steps(steps)) }
      }
      let report = explorer.run(replay: ReplayString.encode(schedule))
      progress.send(.steps(report.failure?.steps ?? []))
    case .explore:
      // Only whether a schedule traps matters here: the test process tells any other failure.
      var explorer = explorer
      explorer.narrates = false
      progress.send(.report(ReportPayload(explorer.run(replay: replay))))
    }
    explorer.context.watchdog?.stop()
    exitChild(0)
  }
}

/// The route a test's explorations take, as its traits set it.
enum ExplorationRoute {
  /// Whether the current test explores in process only (the `exploresInProcess` trait).
  @TaskLocal package static var inProcess = false
}
