/// How long the toolkit's own work holds the main actor before an `async` form of `explore`
/// or `withSerialScheduler` gives it back, and the giving back.
///
/// The synchronous forms hold the main actor from start to end, as any synchronous
/// main-actor code does. The `async` forms check between two schedules (or two slices of a
/// scheduler's jobs) whether the toolkit has held it for a turn since it last gave it back,
/// and if so let every main-actor job queued meanwhile run first: another test's tap, its
/// model's update, its wait on a controlled call. The turn is shared by every caller, so a
/// test that calls `withSerialScheduler` thousands of times in a loop gives the main actor
/// back as often as one long exploration does.
@MainActor
enum MainActorTurn {
  /// How long the toolkit may hold the main actor before it gives it back.
  nonisolated static let length = Duration.milliseconds(2)

  /// When the toolkit last gave the main actor back (or first took it).
  private static var since = ContinuousClock.now

  /// When the toolkit's turn on the main actor ends, for work that checks between its own
  /// steps (a long schedule between its jobs); `nil` inside another scope's job, where it
  /// is never given back.
  static var end: ContinuousClock.Instant? {
    JobRouter.shared.ownsCurrentContext() ? nil : since + length
  }

  /// Gives the main actor back if a turn has passed since it last did.
  ///
  /// Never inside another scope's job (an exploration or a scheduler nested in a scheduler's
  /// body): the outer scope's driver holds the main actor there, and a yield decided by the
  /// clock would be a place where the outer scope runs its other jobs in some runs and not
  /// in others.
  static func giveBackIfDue() async {
    guard !JobRouter.shared.ownsCurrentContext() else { return }
    let now = ContinuousClock.now
    guard since.duration(to: now) >= length else { return }
    // Behind every main-actor job queued meanwhile: the main actor runs its jobs in order.
    await Task.yield()
    since = .now
  }
}
