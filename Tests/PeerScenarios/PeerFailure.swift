import TaskProvidingTesting

/// A failure the explorer finds in another package's code, each written up in
/// docs/peer-code.md: its scenario, for the tests that check every strategy finds it and for
/// the benchmark that counts how soon each does.
package struct PeerFailure: Sendable, CustomStringConvertible {
  /// What fails, in a phrase.
  package let name: String
  /// The package and the version on the mirror.
  package let package: String
  /// Whether each schedule runs many tasks (a clock that yields through twenty of its own),
  /// so a search of it runs fewer schedules.
  package let isCostly: Bool
  /// The scenario; its final check fails where the package breaks its promise.
  package let scenario: @MainActor @Sendable (Exploration) async throws -> Void

  package var description: String { "\(name) (\(package))" }

  /// Every one, in the order of docs/peer-code.md: the three findings, then the known
  /// upstream bug.
  package static let all: [PeerFailure] = [
    .flatMapLatestCancellation, .producerCancelledBeforeItsFirstNext,
    .debounceCancelledBetweenTwoNextCalls, .testClockAdvance,
  ]
}
