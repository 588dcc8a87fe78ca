import Testing

/// A failing exploration's story, replay string and every step, attached to the Swift Testing
/// test that ran it: Xcode shows them in its report, and `swift test --attachments-path DIR`
/// writes them to `DIR`.
enum FailureAttachments {
  /// Attaches `failure`, found by the exploration at `site`, to the current test; outside a
  /// Swift Testing test, does nothing.
  static func record(_ failure: ExplorationFailure, at site: CallSite) {
    guard Test.current != nil else { return }
    let location = site.sourceLocation
    Attachment.record(
      failure.description(replayingAt: site) + "\n", named: "exploration-failure.txt",
      sourceLocation: location)
    Attachment.record(
      failure.replay + "\n"
        + "\(ReplayFromEnvironment.variable)='\(site.description)=\(failure.replay)'\n",
      named: "exploration-replay.txt", sourceLocation: location)
    let numbered = failure.everyStep.enumerated().map { "\($0.offset + 1). \($0.element)" }
    Attachment.record(
      numbered.joined(separator: "\n") + "\n", named: "exploration-steps.txt",
      sourceLocation: location)
  }
}
