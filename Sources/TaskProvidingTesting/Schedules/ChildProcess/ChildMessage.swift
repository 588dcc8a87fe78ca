/// What a child exploring for the test process tells it as the exploration goes, one message
/// a line, each written whole as it happens: when the child dies, the test process knows
/// which schedule it was in and how far it got.
enum ChildMessage: Codable, Equatable {
  /// A schedule begins.
  case scheduleBegins
  /// The schedule under way departs from the default order: option `option` at `decision`.
  case departed(decision: Int, option: Int)
  /// A candidate of a trapping schedule's shrinking begins: the `index`th.
  case candidateBegins(index: Int)
  /// Every candidate the child was to run ran, and none ended it.
  case candidatesRan
  /// The exploration ended, and nothing ended the child: its report.
  case report(ReportPayload)
  /// The steps of the schedule being narrated, as far as it went.
  case steps([String])
  /// A job did not return within the watchdog's timeout, which ends the child: the watchdog's
  /// account of the job.
  case jobNeverReturned(String)

  /// The message as one line.
  var line: String { JSONLine.encode(self) ?? "" }

  /// The message a line holds; `nil` for a line that is none (one cut short as the child died).
  init?(line: Substring) {
    guard let message = JSONLine.decode(Self.self, from: line) else { return nil }
    self = message
  }
}
