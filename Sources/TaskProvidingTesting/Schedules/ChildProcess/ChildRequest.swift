/// What a child exploring for the test process is to do: which `explore` call of which test,
/// in which mode, and where to write its messages. The test process writes it to a file the
/// child's environment names; the child reads it once.
struct ChildRequest: Codable {
  /// What the child does at the call.
  enum Mode: Codable, Equatable {
    /// Explore, and report whether a schedule traps.
    case explore
    /// Run the candidates of shrinking `schedule`, from the `start`th, until one ends the child.
    case shrink(schedule: [ReplayString.Departure], start: Int)
    /// Replay `schedule`, narrating its steps up to where it ends the child.
    case narrate(schedule: [ReplayString.Departure])
  }

  static let variable = "TASK_PROVIDING_EXPLORATION_CHILD"

  /// The file the child writes its ``ChildMessage``s to.
  let output: String
  let call: ChildCall
  let mode: Mode

  init(output: String, call: ChildCall, mode: Mode) {
    self.output = output
    self.call = call
    self.mode = mode
  }

  /// The request a file holds; `nil` if it holds none.
  init?(decoding text: String) {
    guard let request = JSONLine.decode(Self.self, from: text) else { return nil }
    self = request
  }

  /// The request this process was started with, if it is a child.
  static let current: ChildRequest? = {
    guard let path = environmentValue(variable) else { return nil }
    return ChildRequest(decoding: ChildProcess.read(path))
  }()

  /// The request as the file holds it.
  var encoded: String? { JSONLine.encode(self) }
}

/// One `explore` call of a test, as a child finds it again.
struct ChildCall: Codable, Sendable {
  /// The test's ID, as Swift Testing describes it.
  let test: String
  /// The call's place in the source.
  let site: String
  /// How many explorations the test ran before this one.
  let occurrence: Int
  /// Their reports.
  let earlier: [ReportPayload]
  /// The test binary's arguments that run the test alone; the child needs none.
  var arguments: [String] = []

  private enum CodingKeys: String, CodingKey {
    case test, site, occurrence, earlier
  }
}
