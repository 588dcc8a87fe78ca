/// How long one schedule waits, and how far it may go, before it counts as stuck or endless.
enum ScheduleLimits {
  /// How long a schedule waits for outside work it knows of, unless `outsideWait` says.
  static let defaultOutsideWait = Duration.seconds(2)
  /// How long a schedule that knows of no outside work gives a thread that may be resuming
  /// one of its tasks right now, before it counts as stuck.
  static let grace = Duration.milliseconds(2)
  /// How long the first schedule of an exploration that gets stuck with no sign of outside
  /// work waits, once, for a continuation handed to a thread outside the scope (a dispatch
  /// queue, a callback): such work shows itself within this, and the exploration then
  /// waits for it in every schedule.
  static let probe = Duration.milliseconds(100)
  /// How long a sleep of the scope's tasks may take to end, at most, before the schedule
  /// counts as stuck.
  static let longestSleep = Duration.seconds(60)

  /// Choices a schedule may take before it counts as endless.
  static let maximumSteps = 10_000
  /// Jobs a schedule may run before it counts as endless (a task that loops, yielding). The
  /// explorer's own tests lower it, to see a loop reported without running a million jobs.
  @TaskLocal static var maximumJobs = 1_000_000
}
