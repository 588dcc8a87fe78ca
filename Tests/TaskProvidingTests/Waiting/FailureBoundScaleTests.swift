import TaskProvidingTesting
import Testing

/// A slow run scales every failure bound by one factor from the environment, and a value that
/// would shrink or break the bounds leaves them as written.
@Suite struct TimeoutScaleTests {
  @Test(
    arguments: [
      (nil, 1.0), ("6", 6), ("2.5", 2.5), ("1", 1), ("0.5", 1), ("0", 1), ("-3", 1), ("", 1),
      ("six", 1), ("nan", 1), ("inf", 1), ("1e9", 1_000),
    ] as [(String?, Double)])
  func theFactorIsANumberOfAtLeastOne(_ value: String?, _ factor: Double) {
    #expect(TimeoutScale.factor(from: value) == factor)
  }

  @Test func boundsGrowByTheFactorAndAHugeOneStaysInRange() {
    #expect(TimeoutScale.scaled(.seconds(5), by: 6) == .seconds(30))
    #expect(TimeoutScale.scaled(.milliseconds(20), by: 1) == .milliseconds(20))
    #expect(TimeoutScale.scaled(.zero, by: 6) == .zero)
    // A bound of `.seconds(Int64.max)` means "never"; scaling it must not trap.
    #expect(TimeoutScale.scaled(.seconds(Int64.max), by: 1_000) > .seconds(3600 * 24 * 365))
  }

  /// The suite runs with the factor its environment gives; a message names the bound as
  /// written, and the factor when there is one.
  @Test func aMessageNamesTheBoundAsWritten() {
    let described = TimeoutScale.describe(.milliseconds(20))
    #expect(described.hasPrefix("0.02 seconds"))
    #expect((described == "0.02 seconds") == (TimeoutScale.factor == 1))
  }
}
