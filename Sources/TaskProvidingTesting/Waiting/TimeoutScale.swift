/// The factor by which the toolkit multiplies every timeout, for a run that is slow as a
/// whole: a suite under ThreadSanitizer, a loaded build machine.
///
/// Set `TASK_PROVIDING_TIMEOUT_SCALE` in the test process's environment to a number of at
/// least 1, for example `TASK_PROVIDING_TIMEOUT_SCALE=6 swift test --sanitize=thread`. Every
/// timeout of the toolkit then lasts that many times longer: a `ControlledFunction`'s wait for a
/// call and its answer timeout, the test providers' waits for tasks, `value(timeout:)`,
/// `waitUntil` and the serial scheduler's timeout.
///
/// Only a failing test ever reaches a timeout, so a larger factor slows no passing test: it
/// delays a failure's report. A message then names both figures ("within 0.5 seconds × 6").
/// Without the variable, or with a value that is not a number of at least 1, the factor is 1.
public enum TimeoutScale {
  /// The environment variable read for the factor.
  public static let environmentVariable = "TASK_PROVIDING_TIMEOUT_SCALE"

  /// The factor this process runs with, read once from ``environmentVariable``.
  public static let factor: Double = factor(
    from: environmentValue(environmentVariable))

  /// The factor a value of ``environmentVariable`` gives: at least 1, at most 1,000.
  public static func factor(from value: String?) -> Double {
    guard let value, let factor = Double(value), factor.isFinite, factor >= 1
    else { return 1 }
    return min(factor, 1_000)
  }

  /// `timeout` multiplied by ``factor``.
  public static func scaled(_ timeout: Duration) -> Duration {
    scaled(timeout, by: factor)
  }

  /// `timeout` as a message gives it: `0.5 seconds`, or `0.5 seconds × 6` when scaled.
  public static func describe(_ timeout: Duration) -> String {
    guard factor != 1 else { return "\(timeout)" }
    let shown = factor == factor.rounded() ? "\(Int(factor))" : "\(factor)"
    return "\(timeout) × \(shown)"
  }

  /// `timeout` multiplied by `factor`, a year at most before multiplying.
  package static func scaled(_ timeout: Duration, by factor: Double) -> Duration {
    guard factor != 1, timeout > .zero else { return timeout }
    // Past a year a timeout never ends anyway; capping first keeps the product in range.
    let year = Duration.seconds(366 * 24 * 3600)
    return min(timeout, year) * factor
  }
}
