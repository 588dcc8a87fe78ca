/// A schedule that broke the scenario: why, the steps that led there, and the string that
/// replays it.
public struct ExplorationFailure: Error, Sendable, CustomStringConvertible {
  /// The strategy that found it.
  public let strategy: ExplorationStrategy
  /// Which schedule it was, from 1, as the strategy found it (before it was shrunk).
  public let scheduleNumber: Int
  /// Pass it as `replay:` to run exactly this schedule again.
  public let replay: String
  /// The steps of the schedule, in order, as a person reads them: each choice, and each job
  /// by its task, where that task resumes and on which actor; a task entering an actor while
  /// another is suspended inside it is narrated so, and runs of steps in the default order away
  /// from the race are folded into one.
  public let steps: [String]
  /// Every step of the schedule, one line each, with none of ``steps``' runs folded; as
  /// ``steps`` where a child process explored and narrated its steps folded.
  public let everyStep: [String]
  /// What went wrong.
  public let reason: String
  /// How many times the schedule departs from the default order (enqueue order for jobs,
  /// the first option for every other choice): the fewest that still fail.
  public let departures: Int
  /// Set when the schedule, run once more before it was reported, went another way and did
  /// not fail as it had: what diverged. The failure happened, but something the explorer
  /// does not control took part in it, and the replay string may not bring it back.
  public let nondeterminism: String?
  /// Whether the scenario's body threw (for a test explored as written: recorded an issue or
  /// threw), rather than broke a check, got stuck or trapped.
  let scenarioThrew: Bool

  /// A failure, as the explorer reports one.
  init(
    strategy: ExplorationStrategy, scheduleNumber: Int, replay: String, steps: [String],
    everyStep: [String]? = nil, reason: String, departures: Int, nondeterminism: String? = nil,
    scenarioThrew: Bool = false
  ) {
    self.everyStep = everyStep ?? steps
    self.strategy = strategy
    self.scheduleNumber = scheduleNumber
    self.replay = replay
    self.steps = steps
    self.reason = reason
    self.departures = departures
    self.nondeterminism = nondeterminism
    self.scenarioThrew = scenarioThrew
  }

  /// The failure as a report: the reason, the steps, the replay string.
  public var description: String { description(replayingAt: nil) }

  /// The failure as a report, which says how to replay it from the environment when it knows
  /// the exploration's place, `site`.
  func description(replayingAt site: CallSite?) -> String {
    let numbered = steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
    let needed =
      departures == 0
      ? "no departure from the default order"
      : "\(departures) \(departures == 1 ? "departure" : "departures") from the default order"
    let replaying =
      nondeterminism.map {
        "Run once more, it did not fail as it had (uncontrolled nondeterminism): \($0)"
          + " Its replay string, \"\(replay)\", may not bring it back."
      } ?? "Replay it with explore(…, replay: \"\(replay)\")"
      + (site.map { ", " + ReplayFromEnvironment.instruction(for: $0, replay: replay) } ?? "")
      + ". It needs \(needed)."
    return
      ([
        "Exploration (\(strategy)) failed on schedule \(scheduleNumber): \(reason)",
        replaying,
        numbered.isEmpty
          ? "It failed before the first choice."
          : nondeterminism == nil ? "Steps:" : "Steps of the run once more, as far as it went:",
      ] + numbered).joined(separator: "\n")
  }
}
