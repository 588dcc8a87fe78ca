/// The text that names one schedule, to run it again: `x2:` and the decisions that depart
/// from the default, each as `decision.option` (both counted from 0), joined by commas.
///
/// `x2:` alone is the default schedule: every job in enqueue order, the first option at every
/// other choice. `x2:3.1,9.2` takes the second option at decision 3 and the third at
/// decision 9. A decision is any point where more than one thing could happen next, jobs and
/// choices alike, so the string does not depend on the strategy that found the schedule.
package enum ReplayString {
  /// A decision that took another option than the default.
  package struct Departure: Codable, Equatable, Sendable {
    package let decision: Int
    package let option: Int
  }

  package static func encode(_ departures: [Departure]) -> String {
    "x2:" + departures.map { "\($0.decision).\($0.option)" }.joined(separator: ",")
  }

  /// The departures `text` names, or why it names none.
  package static func decode(_ text: String) -> Result<[Departure], DecodingError> {
    if text.hasPrefix("x1:") { return .failure(.earlierVersion) }
    guard text.hasPrefix("x2:") else { return .failure(.notAReplayString) }
    let list = text.dropFirst(3)
    if list.isEmpty { return .success([]) }
    var departures: [Departure] = []
    for part in list.split(separator: ",", omittingEmptySubsequences: false) {
      let fields = part.split(separator: ".", omittingEmptySubsequences: false)
      guard fields.count == 2, let decision = Int(fields[0]), let option = Int(fields[1]),
        decision >= 0, option > 0, departures.last.map({ $0.decision < decision }) ?? true
      else { return .failure(.notAReplayString) }
      departures.append(Departure(decision: decision, option: option))
    }
    return .success(departures)
  }

  /// Why a text is not a replay string.
  package enum DecodingError: Error {
    /// It is not of the form `x2:` and `decision.option` pairs.
    case notAReplayString
    /// It is an `x1:` string, from a version that made no choice among jobs.
    case earlierVersion
  }
}
