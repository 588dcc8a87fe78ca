import Synchronization

/// The sequences, iterators and tasks of a scenario that have ended, by name: what a
/// scenario checks to find one left alive at its end.
package final class Ended: Sendable {
  package init() {}

  private let names = Mutex<[String]>([])

  package func mark(_ name: String) { names.withLock { $0.append(name) } }

  package func contains(_ name: String) -> Bool { names.withLock { $0.contains(name) } }

  /// Every name marked, in order.
  package var all: [String] { names.withLock { $0 } }
}
