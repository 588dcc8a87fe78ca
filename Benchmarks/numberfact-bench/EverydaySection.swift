import Foundation

extension Report {
  func everydaySection() -> [String] {
    guard let everyday else { return [] }
    let median = { (style: EverydayStyle) in Summary(everyday.microseconds[style] ?? [0]) }
    let naive = median(.naive).median
    let floor = median(.handWritten).median
    // The goals, in an adopter's debug build: stated in the prose and judged below.
    let (recommendedGoal, serialGoal) = (1.25, 0.33)
    var lines = [
      "", "## The everyday style", "",
      "One loader test per style, \(everyday.tests.formatted()) of each per run, in "
        + "alternating blocks, in a \(plan.configuration) build. The recommended style is the "
        + "README's first: a recording provider scoped to the test (as the "
        + "`.recordingTaskProvider` trait scopes it), the loader made under it, a "
        + "`ControlledFunction` for its dependency, `nextCall()`, `answer`, `waitForAll()`, "
        + "assert. The naive style is the articles' starting point: a test spawns through "
        + "`Task { }`, yields once, asserts, against a mock that answers after one yield. The "
        + "floor does what the recommended style does, by hand: `Task { }`, a continuation to "
        + "wait for the call, one to answer it, `await task.value`. The floor with the "
        + "provider read through `@Dependency` adds the recommended style's dependency "
        + "plumbing and nothing of the toolkit's testing side: a live provider installed for "
        + "the test through swift-dependencies' task local, read by the loader. What it costs "
        + "beyond the floor is swift-dependencies'; what the recommended style costs beyond it "
        + "is the toolkit's. Every style runs on the main actor, as a test of "
        + "a `@MainActor` model does, and so does the loop that times them, so no style pays "
        + "a hop to the main actor and back that the test itself does not make. Goal: the "
        + "recommended style at most \(Summary.format(recommendedGoal, 2))× the floor; the "
        + "serial one at most \(Summary.format(serialGoal, 2))× of it.", "",
      "| Style | µs per test | ÷ floor | ÷ naive | assertion failed |",
      "|---|---:|---:|---:|---:|",
    ]
    for style in EverydayStyle.allCases {
      let figure = median(style)
      lines.append(
        "| \(style.rawValue) | \(figure.formatted(1)) | "
          + "\(Summary.format(figure.median / floor, 2)) | "
          + "\(Summary.format(figure.median / naive, 2)) | "
          + "\((everyday.failures[style] ?? 0).formatted()) |")
    }
    // The verdict is written, not left to the reader: a goal the table misses says so.
    let ratio = { (style: EverydayStyle) in median(style).median / floor }
    let verdict = { (met: Bool) in met ? "met" : "**not met**" }
    let recommended = ratio(.recommended)
    let plumbing = ratio(.handWrittenWithDependency)
    let serial = ratio(.serial)
    lines += [
      "",
      "Recommended: \(Summary.format(recommended, 2))× the floor, goal "
        + "\(Summary.format(recommendedGoal, 2))× \(verdict(recommended <= recommendedGoal)); "
        + "of what it costs beyond the floor, "
        + "swift-dependencies' plumbing is \(Summary.format(plumbing - 1, 2)) of the floor and "
        + "the toolkit's records, waits and checks \(Summary.format(recommended - plumbing, 2)). "
        + "Serial: \(Summary.format(serial, 2))× the floor, goal "
        + "\(Summary.format(serialGoal, 2))× \(verdict(serial <= serialGoal)).",
    ]
    return lines
  }
}
