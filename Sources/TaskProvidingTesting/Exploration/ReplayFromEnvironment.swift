/// Replays named in the test process's environment, so that a failing schedule runs again
/// with no edit to the test: `TASK_PROVIDING_REPLAY='MyAppTests/ModelTests.swift:42=x2:3.1'`.
///
/// Each entry is the place of the exploration as a failure names it (the `explore` call, or
/// the test under the `exploring` trait), `=`, and the replay string; entries are separated
/// by `;` or whitespace. An exploration whose place is named runs that one schedule, whatever
/// its own `replay:` says; every other runs as written.
package enum ReplayFromEnvironment {
  /// The variable the replays are read from.
  package static let variable = "TASK_PROVIDING_REPLAY"

  /// The replay string the environment names for the exploration at `site`, if any.
  static func replay(for site: CallSite) -> String? {
    guard let text = environmentValue(variable) else { return nil }
    return replay(for: site.description, in: text)
  }

  /// The replay string `text` names for the place `place`, if any.
  static func replay(for place: String, in text: String) -> String? {
    for entry in text.split(whereSeparator: { $0 == ";" || $0.isWhitespace }) {
      guard let separator = entry.lastIndex(of: "=") else { continue }
      if entry[..<separator] == place { return String(entry[entry.index(after: separator)...]) }
    }
    return nil
  }

  /// How a failure tells its reader to replay it from the environment.
  static func instruction(for site: CallSite, replay: String) -> String {
    "or, with no edit, run the test with \(variable)='\(site.description)=\(replay)'"
  }
}
