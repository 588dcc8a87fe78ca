import FactClient
import FactStore
import FactStoreSQLite
import Foundation
import Glibc

/// What section 10 measured: what the store costs the app, and `history` over a full store.
struct StoreFigures: Sendable {
  /// Facts in the store the app and `history` ran against.
  let facts: Int
  /// The app with that store, and the same drive with `--no-store`, alternating.
  var withStore: [AppRun] = []
  var withoutStore: [AppRun] = []
  /// The same two drives with a pause before each `f`, as a person's pace leaves: the
  /// previous fact's write to the store has ended by then.
  var withStorePaced: [AppRun] = []
  var withoutStorePaced: [AppRun] = []
  /// The pause before each `f` of the paced drives.
  static let pause = Duration.milliseconds(10)
  /// Presses of each paced drive.
  static let pacedPresses = 200
  /// `numberfact history`, spawn to exit, output to /dev/null: every fact, as lines.
  var historyWall: [Double] = []
  /// The same with `--json`.
  var historyJSONWall: [Double] = []
  /// `history --search` for a word no fact has: the whole store is read and matched.
  var historySearchWall: [Double] = []
  /// `history --no-store`: start-up and exit alone, the baseline.
  var historyBaselineWall: [Double] = []
}

/// A fact the benchmark stores for `number`, with text that no computed fact has.
func benchmarkFact(_ number: Int) -> NumberFact {
  NumberFact(
    number: number, kind: .trivia, text: "\(number) is stored fact #\(number) of the benchmark.",
    found: true, source: .live, host: "numbersapi.com")
}

extension Measure {
  func storeFigures(_ plan: Plan) async throws -> StoreFigures {
    let binary = try appBinary()
    let home = NSTemporaryDirectory() + "numberfact-bench-store-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: home) }
    let facts = plan.storedFacts
    try await fillStore(
      at: home + "/data/numberfact/store.sqlite", facts: facts, limit: facts)
    var figures = StoreFigures(facts: facts)
    let presses = min(plan.presses, facts)

    for run in 1...plan.runs {
      // One drive with the store, one without, in an order that alternates by run; then
      // both again at a person's pace.
      for paced in [false, true] {
        for withStore in run.isMultiple(of: 2) ? [false, true] : [true, false] {
          // `--count 0` each time: the session saved at quit would otherwise move the start.
          let arguments =
            ["--source", "offline", "--count", "0"] + (withStore ? [] : ["--no-store"])
          let marker = withStore ? "from numbersapi.com" : "computed on this machine"
          let pause: Duration = paced ? StoreFigures.pause : .zero
          let result = try await onOwnThread {
            try driveApp(
              binary: binary, arguments: arguments, home: home,
              presses: paced ? min(presses, StoreFigures.pacedPresses) : presses,
              idle: .seconds(1)
            ) { number, output in
              try pressPlusThenFact(number, &output, until: marker, after: pause)
            }
          }
          switch (withStore, paced) {
          case (true, false): figures.withStore.append(result)
          case (false, false): figures.withoutStore.append(result)
          case (true, true): figures.withStorePaced.append(result)
          case (false, true): figures.withoutStorePaced.append(result)
          }
          log(
            "10. run \(run), \(withStore ? "store" : "no store")\(paced ? ", paced" : ""): "
              + "first frame " + Summary.format(result.launchSeconds * 1000, 1)
              + " ms, fact p99 "
              + Summary.format(percentile(result.keyLatencies, 0.99) * 1000, 2) + " ms, peak "
              + Summary.format(megabytes(Double(result.peakResidentBytes)), 1) + " MiB")
        }
      }
      let environment = ["XDG_DATA_HOME=\(home)/data", "XDG_CONFIG_HOME=\(home)/config"]
      for _ in 0..<5 {
        figures.historyWall.append(
          try timedRun(binary, ["history"], environment: environment).0)
        figures.historyJSONWall.append(
          try timedRun(binary, ["history", "--json"], environment: environment).0)
        figures.historySearchWall.append(
          try timedRun(binary, ["history", "--search", "zzzz"], environment: environment).0)
        figures.historyBaselineWall.append(
          try timedRun(binary, ["history", "--no-store"], environment: environment).0)
      }
      log(
        "10. run \(run): history over \(facts.formatted()) facts "
          + Summary.format(Summary(figures.historyWall.suffix(5)).median * 1000, 1) + " ms")
    }
    return figures
  }

  /// A store at `path` holding `facts` facts, numbers 0 up, written as the app writes.
  private func fillStore(at path: String, facts: Int, limit: Int) async throws {
    let store = FactStore.sqlite(at: path, limit: limit)
    let batch = 1_000
    for start in stride(from: 0, to: facts, by: batch) {
      let numbers = start..<min(start + batch, facts)
      try await store.record(numbers.map(benchmarkFact), Date())
    }
    let kept = try await store.history(.init(limit: facts + 1)).count
    guard kept == facts else {
      throw AppDriverError(description: "the store kept \(kept) of \(facts) facts")
    }
  }
}

/// Presses `+`, which clears the fact, waits for that frame and then `pause`, then presses
/// `f`: the seconds from `f` to the frame whose last fact row, the source line, contains
/// `marker`.
func pressPlusThenFact(
  _ number: Int, _ output: inout TerminalOutput, until marker: String, after pause: Duration
) throws -> Double {
  _ = try pressPlus(number, &output)
  if pause > .zero { Thread.sleep(forTimeInterval: pause.seconds) }
  output.discard()
  let sent = ContinuousClock.now
  try output.write("f")
  guard try output.read(until: { $0.contains(marker) }, timeout: .seconds(5)) else {
    throw AppDriverError(description: "the fact for \(number) was not drawn within 5 s")
  }
  return (ContinuousClock.now - sent).seconds
}
