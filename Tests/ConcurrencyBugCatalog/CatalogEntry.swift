// A catalog of Swift concurrency bugs, classic ones and ones that shipped in public projects,
// each written as plain Swift (actors, tasks, streams, continuations, task groups; no test
// doubles) beside a fixed twin, with the scenario that shows it. The
// explorer must find every bug and pass every twin; see CatalogTests and the benchmark.

import TaskProvidingTesting

/// One classic bug: how to explore the flawed code and its fixed twin.
public struct CatalogEntry: Sendable, CustomStringConvertible {
  /// What the bug is, as its section of the catalog calls it.
  public let name: String
  /// What goes wrong, in a sentence.
  public let summary: String
  /// The scenario on the flawed code.
  public let bug: @MainActor @Sendable (Exploration) async throws -> Void
  /// The same scenario on the fixed twin.
  public let fixed: @MainActor @Sendable (Exploration) async throws -> Void

  public var description: String { name }

  /// Classic bugs, each a small model of a pattern Swift engineers write.
  public static let classic: [CatalogEntry] = [
    .imageCache, .tokenRefresh, .lostUpdate, .checkThenAct, .groupResultOrder,
    .cancellationCheckedTooEarly, .outOfOrderWrites, .eventBeforeSubscriber,
    .streamFinishedByOneProducer, .waitingOnEachOther, .staleSearchResults,
  ]

  /// From the field: bugs that shipped in public Swift projects, each file names its fix; the
  /// last three were found by this explorer in peer packages.
  public static let fromTheField: [CatalogEntry] = [
    .staleWorkspaceCache, .duplicateProgress, .cancellationLostAtHandOff, .barrierBeforeWork,
    .cancelBeforeRegistration, .cancelBeforeStore,
    .waiterDroppedAcrossActors, .exitBeforeWait, .watcherErrorMasksResult,
    .shutdownWaitsOutBackoff, .cancellationEndsOnlyTheConsumer,
    .cancellationBetweenCallsForgetsTheFeeder,
    .terminationUntoldOnEarlyCancel,
  ]

  /// Code that sleeps as plain code does, on the scope's virtual time.
  public static let sleeping: [CatalogEntry] = [
    .debounceSearchesSupersededText, .retryIgnoresCancellation, .timeoutOverwritesAnswer,
  ]

  /// Every entry that does not trap, in the catalog's order.
  public static let all: [CatalogEntry] = classic + fromTheField + sleeping

  /// Entries whose bug traps (a continuation resumed twice, a failed `precondition`): found
  /// only where the exploration runs in a child process, since in process the trap ends the
  /// run. Kept out of ``all``, which the benchmark explores in process.
  public static let trapping: [CatalogEntry] = [.continuationResumedTwice, .transferEndsTwice]
}
