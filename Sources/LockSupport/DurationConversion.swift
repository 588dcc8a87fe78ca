extension Duration {
  /// Whole nanoseconds, saturated at `Int64`'s bounds instead of trapping: a `Duration`
  /// holds about 10^11 times more than an `Int64` of nanoseconds does.
  package var saturatedNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let bound: Int64 = seconds < 0 ? .min : .max
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return bound }
    let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    return sumOverflow ? bound : sum
  }

  /// Nanoseconds from zero to about a year: what a Dispatch deadline can add to "now"
  /// without overflowing. A wait that long is a wait that never ends.
  package var dispatchNanoseconds: Int {
    Int(min(max(0, saturatedNanoseconds), 32_000_000_000_000_000))
  }

  /// Seconds, as the `Double` that Foundation and SQLite take.
  package var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
