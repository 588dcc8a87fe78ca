import LockSupport
import TaskProviding
import Testing

/// The one conversion of a `Duration` to nanoseconds and seconds, at its edges.
@Suite struct DurationConversionTests {
  @Test func nanosecondsAreExactInRangeAndSaturateOutside() {
    #expect(Duration.milliseconds(1_500).saturatedNanoseconds == 1_500_000_000)
    #expect(Duration.nanoseconds(-7).saturatedNanoseconds == -7)
    #expect(Duration.seconds(Int64.max).saturatedNanoseconds == .max)
    #expect(Duration.seconds(Int64.min).saturatedNanoseconds == .min)
    // Within an Int64 of seconds-times-a-billion, but not once the rest is added.
    let edge = Duration.seconds(Int64.max / 1_000_000_000) + .nanoseconds(999_999_999)
    #expect(edge.saturatedNanoseconds == .max)
  }

  @Test func aDispatchWaitIsBetweenNothingAndAYear() {
    #expect(Duration.seconds(-5).dispatchNanoseconds == 0)
    #expect(Duration.milliseconds(2).dispatchNanoseconds == 2_000_000)
    #expect(Duration.seconds(Int64.max).dispatchNanoseconds == 32_000_000_000_000_000)
  }

  @Test func secondsKeepTheFraction() {
    #expect(Duration.milliseconds(2_500).inSeconds == 2.5)
    #expect(Duration.milliseconds(-250).inSeconds == -0.25)
  }
}
