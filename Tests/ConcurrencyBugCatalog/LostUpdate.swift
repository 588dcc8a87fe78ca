// A lost update across an await: main-actor code reads a value, awaits, then writes what it
// read plus one; a second tap in between is lost.

import TaskProvidingTesting

/// The server that records each like.
actor LikeServer {
  private(set) var recorded = 0
  func record() { recorded += 1 }
}

/// A like button's count. Flawed: `like()` reads the count before the await and writes
/// from that stale read after it.
@MainActor
final class LikeCounter {
  private let server: LikeServer
  private(set) var count = 0

  init(server: LikeServer) { self.server = server }

  func like() async {
    let before = count
    await server.record()
    count = before + 1
  }
}

/// The fix: change the count after the await from what it is then.
@MainActor
final class IncrementingLikeCounter {
  private let server: LikeServer
  private(set) var count = 0

  init(server: LikeServer) { self.server = server }

  func like() async {
    await server.record()
    count += 1
  }
}

extension CatalogEntry {
  static let lostUpdate = CatalogEntry(
    name: "a lost update across an await",
    summary: "two likes read the same count before either writes, so the count ends at 1",
    bug: { exploration in
      let counter = LikeCounter(server: LikeServer())
      try await likeTwice(exploration, { await counter.like() }, count: { counter.count })
    },
    fixed: { exploration in
      let counter = IncrementingLikeCounter(server: LikeServer())
      try await likeTwice(exploration, { await counter.like() }, count: { counter.count })
    })

  @MainActor
  private static func likeTwice(
    _ exploration: Exploration, _ like: @escaping @MainActor () async -> Void,
    count: @escaping @MainActor () -> Int
  ) async throws {
    let taps = (1...2).map { tap in Task(name: "like tap \(tap)") { await like() } }
    for tap in taps { await tap.value }
    exploration.atEnd("two likes count two") { count() == 2 }
  }
}
