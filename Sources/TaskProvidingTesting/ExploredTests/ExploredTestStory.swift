/// What a failure of a test explored as written says beside the issues it recorded: where
/// the search found it, how to replay it, whether it fails plainly too, and its steps.
struct ExploredTestStory {
  /// How a failing test fared run plainly on the real runtime, a number of times.
  struct PlainRuns {
    /// How many times it is run, at most.
    static let most = 100
    /// How long those runs may take in all.
    static let time = Duration.seconds(2)

    var runs = 0
    var failures = 0
  }

  /// The failure's reason as a sentence, for a schedule that recorded no issue.
  let reason: String
  /// The story, one line each.
  let text: String

  /// The story of `failure`, which `replayCall` (`.exploring`, `exploring`) replays, as does
  /// the environment naming `site`.
  init(failure: ExplorationFailure, plain: PlainRuns?, replayCall: String, site: CallSite) {
    reason = Self.sentence(failure.reason.replacing("the scenario", with: "the test"))
    var story: [String] = [
      "Explored (\(failure.strategy)), the test failed on schedule \(failure.scheduleNumber).",
      "Replay it with \(replayCall)(replay: \"\(failure.replay)\"), "
        + ReplayFromEnvironment.instruction(for: site, replay: failure.replay) + ".",
    ]
    if let plain {
      story.append(
        plain.failures == 0
          ? "Run plainly \(plain.runs) times, it passed every time: the runtime rarely or never"
            + " takes this order here."
          : "Run plainly \(plain.runs) times, it failed \(plain.failures) times: it is flaky on"
            + " the real runtime too.")
    }
    if let nondeterminism = failure.nondeterminism {
      story.append("Run once more, it did not fail as it had: \(nondeterminism)")
    }
    // The scenario the explorer ran is the test's body.
    let steps = failure.steps.enumerated().map {
      "  \($0.offset + 1). " + $0.element.replacing("the scenario", with: "the test")
    }
    story.append(steps.isEmpty ? "It failed before the first choice." : "Steps:")
    text = (story + steps).joined(separator: "\n")
  }

  /// `text` as a sentence.
  private static func sentence(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst() + "."
  }
}
