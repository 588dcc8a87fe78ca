/// When a client that fell back to offline facts asks the network again.
package struct FallbackPolicy: Sendable, Hashable {
  /// How long offline facts are given at once after the first transport failure.
  package var firstBackOff: Duration
  /// The longest back-off: each failed retry doubles it up to this.
  package var longestBackOff: Duration

  /// A policy; by default 15 s after the first failure, doubling to 4 minutes.
  package init(firstBackOff: Duration = .seconds(15), longestBackOff: Duration = .seconds(240)) {
    self.firstBackOff = firstBackOff
    self.longestBackOff = max(longestBackOff, firstBackOff)
  }
}
