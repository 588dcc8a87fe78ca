// A 300 ms debounce typed into quickly ("s", "sw", "swift":
// one search, for "swift"), tested two ways side by side in one run: with plain `Task.sleep`
// under the serial scheduler (the scope's virtual time), and with swift-clocks' `TestClock`
// injected and advanced right after the keystrokes, as adopters write it without a scope.
// Then a timeout racing its answer, explored with plain sleeps and with the exploration's
// clock.

import Clocks
import ConcurrencyExtras
import Foundation
import TaskProvidingTesting

struct TimeFigures: Sendable {
  let tests: Int
  /// Microseconds per test, one figure per run, and failures over all runs.
  let virtual: [Double]
  let virtualFailures: Int
  let testClock: [Double]
  let testClockFailures: Int
  /// The timeout race explored exhaustively: schedules, and schedules per second.
  let sleepSchedules: Int
  let sleepPace: Double
  let clockSchedules: Int
  let clockPace: Double
  /// Milliseconds from the start of `explore` to a trapping schedule's report, one per run;
  /// `nil` if the trap was not reported.
  let trapReport: [Double]?
}

/// A search field that searches 300 ms after the last keystroke, sleeping with `sleep`.
@MainActor private final class DebounceField {
  private(set) var searches: [String] = []
  private var pending: Task<Void, Never>?
  private let sleep: @Sendable (Duration) async throws -> Void

  init(sleep: @escaping @Sendable (Duration) async throws -> Void) { self.sleep = sleep }

  func type(_ text: String) {
    pending?.cancel()
    pending = Task { [sleep] in
      do { try await sleep(.milliseconds(300)) } catch { return }
      guard !Task.isCancelled else { return }
      searches.append(text)
    }
  }

  func settled() async { await pending?.value }
  func stop() { pending?.cancel() }
}

@MainActor
func timeFigures(_ plan: Plan) async -> TimeFigures {
  let clock = ContinuousClock()
  let tests = plan.sleepingTests
  var virtual: [Double] = []
  var testClock: [Double] = []
  var virtualFailures = 0
  var testClockFailures = 0
  for _ in 0..<plan.runs {
    // Plain sleeps on the serial scheduler's virtual time.
    var start = clock.now
    for seed in 0..<tests {
      let searches = try? await withSerialScheduler(order: .random(seed: UInt64(seed))) {
        let field = DebounceField(sleep: { try await Task.sleep(for: $0) })
        field.type("s")
        field.type("sw")
        field.type("swift")
        await field.settled()
        return field.searches
      }
      if searches != ["swift"] { virtualFailures += 1 }
    }
    virtual.append((clock.now - start).seconds * 1e6 / Double(tests))
    // The same test with a TestClock, advanced right after the keystrokes: the flaky way.
    start = clock.now
    for _ in 0..<tests {
      let testClock = TestClock()
      let field = DebounceField(sleep: { try await testClock.sleep(for: $0) })
      field.type("s")
      field.type("sw")
      field.type("swift")
      await testClock.advance(by: .milliseconds(300))
      if field.searches != ["swift"] { testClockFailures += 1 }
      field.stop()
    }
    testClock.append((clock.now - start).seconds * 1e6 / Double(tests))
  }
  log(
    "code that sleeps: debounce: virtual \(Summary(virtual).formatted(1)) µs/test, \(virtualFailures) failures;"
      + " TestClock \(Summary(testClock).formatted(1)) µs/test, \(testClockFailures) failures")
  let (sleepSchedules, sleepPace) = exploreTimeout(withExplorationClock: false)
  let (clockSchedules, clockPace) = exploreTimeout(withExplorationClock: true)
  log(
    "code that sleeps: timeout race: plain sleeps \(sleepSchedules) schedules at \(sleepPace)/s, "
      + "exploration clock \(clockSchedules) at \(clockPace)/s")
  let trapReport = trapReportMilliseconds(runs: plan.runs)
  log(
    "code that sleeps: trapping schedule reported in \(trapReport.map { Summary($0).formatted(0) } ?? "–") ms"
  )
  return TimeFigures(
    tests: tests * plan.runs, virtual: virtual, virtualFailures: virtualFailures,
    testClock: testClock, testClockFailures: testClockFailures, sleepSchedules: sleepSchedules,
    sleepPace: sleepPace, clockSchedules: clockSchedules, clockPace: clockPace,
    trapReport: trapReport)
}

/// A look-up raced by a one-second timeout in a task group, explored exhaustively; the
/// timeout sleeps with `Task.sleep` or on the exploration's clock. Median of five.
@MainActor
private func exploreTimeout(withExplorationClock: Bool) -> (schedules: Int, pace: Double) {
  let clock = ContinuousClock()
  var runs: [(Int, Double)] = []
  for _ in 0..<5 {
    let start = clock.now
    let report = explore(.exhaustive()) { exploration in
      let lookUp = ControlledFunction<Int, String>("look-up", answers: { "fact \($0)" })
      let timer = exploration.clock
      _ = await withTaskGroup(of: String.self) { group in
        group.addTask { (try? await lookUp.function(7)) ?? "cancelled" }
        group.addTask {
          do {
            if withExplorationClock {
              try await timer.sleep(for: .seconds(1))
            } else {
              try await Task.sleep(for: .seconds(1))
            }
            return "timed out"
          } catch {
            return "cancelled"
          }
        }
        let first = await group.next() ?? "none"
        group.cancelAll()
        return first
      }
    }
    let seconds = (clock.now - start).seconds
    runs.append((report.schedules, Double(report.schedules) / max(seconds, 1e-9)))
  }
  let paces = runs.map(\.1).sorted()
  return (runs[0].0, paces[paces.count / 2])
}

extension Report {
  func timeSection() -> [String] {
    guard let time else { return [] }
    let virtual = Summary(time.virtual)
    let testClock = Summary(time.testClock)
    return [
      "", "## Code that sleeps", "",
      "A 300 ms debounce typed into quickly (\"s\", \"sw\", \"swift\": one search, for "
        + "\"swift\"), \(time.tests.formatted()) tests of each kind in one run. *Virtual time*: "
        + "the field sleeps with plain `Task.sleep`, the test runs under `withSerialScheduler` "
        + "(a seeded order each time) and awaits the last keystroke's task. *TestClock*: the "
        + "field sleeps on swift-clocks' `TestClock`, injected, and the test advances it by "
        + "300 ms right after the keystrokes, with no scope. A wake-up is lost if a sleep is "
        + "not registered before the advance; `advance` yields many times first to make that "
        + "unlikely, which is most of its cost.", "",
      "| Test | µs per test | Failures |", "|---|---:|---:|",
      "| Virtual time, plain `Task.sleep` | \(virtual.formatted(1)) | "
        + "\(time.virtualFailures) / \(time.tests.formatted()) |",
      "| `TestClock` advanced right after the keystrokes | \(testClock.formatted(1)) | "
        + "\(time.testClockFailures) / \(time.tests.formatted()) |",
      "",
      "A one-second timeout racing a look-up in a task group, explored exhaustively: with "
        + "plain `Task.sleep`, \(time.sleepSchedules) schedules at "
        + "**\(Summary.format(time.sleepPace, 0))** per second; on the exploration's clock, "
        + "\(time.clockSchedules) schedules at **\(Summary.format(time.clockPace, 0))** per "
        + "second (median of five).",
      "",
      "A schedule that traps (the catalog's continuation resumed by its response and its "
        + "timeout), explored exhaustively: from the start of `explore` to the report, with "
        + "the runtime's message, the shrunk replay string and the steps up to the trap. "
        + "The exploration runs first in a child process of this program, which the trap ends; "
        + "more children shrink the schedule and narrate it: "
        + (time.trapReport.map { "**\(Summary($0).formatted(0))** ms." }
          ?? "**not reported**."),
    ]
  }
}
