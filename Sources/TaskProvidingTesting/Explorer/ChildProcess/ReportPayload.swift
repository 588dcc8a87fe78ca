/// A report as one line of text, for a child process to hand its exploration's report to the
/// test process, and for the test process to hand a child the reports of the explorations
/// its test ran before the one the child is to run.
enum ReportPayload {
  private static let field: Character = "\u{1F}"
  private static let item: Character = "\u{1E}"

  static func encode(_ report: ExplorationReport) -> String {
    var fields = [
      "\(report.schedules)", report.isComplete ? "1" : "0",
      report.boundLeftSchedulesOut ? "1" : "0", report.bound.map { "\($0)" } ?? "-",
      encode(optional: report.nondeterminism), encode(optional: report.outsideWork),
    ]
    if let failure = report.failure {
      fields += [
        "\(failure.scheduleNumber)", escape(failure.replay), escape(failure.reason),
        "\(failure.departures)", encode(steps: failure.steps),
        encode(optional: failure.nondeterminism),
      ]
    }
    return fields.joined(separator: String(field))
  }

  static func decode(_ line: String, strategy: ExplorationStrategy) -> ExplorationReport? {
    let fields = line.split(separator: field, omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 6 || fields.count == 12, let schedules = Int(fields[0]) else {
      return nil
    }
    var failure: ExplorationFailure?
    if fields.count == 12 {
      guard let number = Int(fields[6]), let departures = Int(fields[9]) else { return nil }
      failure = ExplorationFailure(
        strategy: strategy, scheduleNumber: number, replay: unescape(fields[7]),
        steps: decode(steps: fields[10]), reason: unescape(fields[8]), departures: departures,
        nondeterminism: decode(optional: fields[11]))
    }
    return ExplorationReport(
      strategy: strategy, schedules: schedules, isComplete: fields[1] == "1",
      boundLeftSchedulesOut: fields[2] == "1", bound: Int(fields[3]), failure: failure,
      nondeterminism: decode(optional: fields[4]), outsideWork: decode(optional: fields[5]))
  }

  /// A text that may be absent: `-` for none, else `=` and the text.
  private static func encode(optional text: String?) -> String {
    text.map { "=" + escape($0) } ?? "-"
  }

  private static func decode(optional field: String) -> String? {
    field.first == "=" ? unescape(String(field.dropFirst())) : nil
  }

  static func encode(steps: [String]) -> String {
    steps.map(escape).joined(separator: String(item))
  }

  static func decode(steps: String) -> [String] {
    steps.isEmpty
      ? []
      : steps.split(separator: item, omittingEmptySubsequences: false).map { unescape(String($0)) }
  }

  /// Keeps a text on one line and clear of the separators.
  private static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "%": escaped += "%25"
      case "\n": escaped += "%0A"
      case field: escaped += "%1F"
      case item: escaped += "%1E"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  private static func unescape(_ text: String) -> String {
    text.replacing("%0A", with: "\n").replacing("%1F", with: String(field))
      .replacing("%1E", with: String(item)).replacing("%25", with: "%")
  }
}
