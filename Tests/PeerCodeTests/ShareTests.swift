import AsyncAlgorithms
import TaskProvidingTesting
import Testing

/// `share()` (AsyncShareSequence.swift): "Each element from the source sequence is delivered
/// to all active iterators" (line 25), and "the order of delivery within a side is always
/// guarenteed to be ordered" (Guides/Share.md).
extension PeerCodeTests {
  /// A side handed to the task that iterates it, and used there only.
  struct Side: @unchecked Sendable {
    var iterator: any AsyncIteratorProtocol<Int, Never>
  }

  /// A task that takes every element `side` gives.
  static func collecting(_ side: Side) -> Task<[Int], Never> {
    Task {
      var side = side
      var received: [Int] = []
      while let element = await side.iterator.next(isolation: nil) { received.append(element) }
      return received
    }
  }

  /// Two sides made before either asks for an element, under the default `.bounded(1)`:
  /// each gets every element, in order.
  ///
  /// `emit` resumes the waiting sides in the order of a `Dictionary` of them (line 503),
  /// which depends on where the table is in memory: the order of their jobs changes from
  /// one schedule to the next unless `SWIFT_DETERMINISTIC_HASHING=1`. The exploration says
  /// so instead of failing.
  @Test func everySideOfAShareGetsEveryElementInOrder() async {
    let report = await Self.exploreEveryWay { exploration in
      let shared = [1, 2, 3].async.share()
      let one = Self.collecting(Side(iterator: shared.makeAsyncIterator()))
      let two = Self.collecting(Side(iterator: shared.makeAsyncIterator()))
      let first = await one.value
      let second = await two.value
      exploration.atEnd("each side got 1, 2 and 3 in order") {
        first == [1, 2, 3] && second == [1, 2, 3]
      }
    }
    #expect(report.isComplete || report.nondeterminism?.contains("Dictionary") == true)
  }
}
