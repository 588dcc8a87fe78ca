/// A flag that is raised once: ``raise()`` returns `true` to its first caller only, on
/// whichever thread gets there first. What a warning printed once per process checks.
package final class OnceFlag: Sendable {
  private let isRaised = Locked(false)

  /// A flag not yet raised.
  package init() {}

  /// Raises the flag; returns whether this call was the one that raised it.
  package func raise() -> Bool {
    isRaised.withLock { isRaised in
      defer { isRaised = true }
      return !isRaised
    }
  }
}
