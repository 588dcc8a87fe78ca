// A test that used `withMainSerialExecutor` for a reproducible order, written with the serial
// scheduler instead: the sample is the whole file, as a reader copies it.

// sample: migrate-main-serial-executor
import TaskProviding
import TaskProvidingTesting
import Testing

/// A model as an app writes one: each refresh spawns through the provider and appends
/// what it loads.
@MainActor final class Feed {
  private let load: @Sendable (Int) async -> String
  private let taskProvider: any TaskProvider
  private(set) var items: [String] = []

  init(load: @escaping @Sendable (Int) async -> String, taskProvider: any TaskProvider) {
    self.load = load
    self.taskProvider = taskProvider
  }

  func refresh(_ page: Int) {
    taskProvider.task(name: "refresh \(page)") {
      self.items.append(await self.load(page))
    }
  }
}

@MainActor @Suite struct FeedOrderTests {
  /// Was `await withMainSerialExecutor { … }`: the scheduler runs this test's jobs one at a
  /// time in the order they were enqueued, and nobody else's, so it runs beside any test.
  @Test func refreshesLandInTapOrder() async throws {
    let items = try await withSerialScheduler {
      let provider = RecordingTaskProvider()
      let feed = Feed(load: { "page \($0)" }, taskProvider: provider)
      feed.refresh(1)
      feed.refresh(2)
      try await provider.waitForAll()
      return feed.items
    }
    #expect(items == ["page 1", "page 2"])
  }

  /// Every other legal order too, one seed each: what the main serial executor never shows.
  @Test(arguments: UInt64(0)..<20) func everyOrderShowsBothPages(seed: UInt64) async throws {
    let items = try await withSerialScheduler(order: .random(seed: seed)) {
      let provider = RecordingTaskProvider()
      let feed = Feed(load: { "page \($0)" }, taskProvider: provider)
      feed.refresh(1)
      feed.refresh(2)
      try await provider.waitForAll()
      return feed.items
    }
    #expect(items.sorted() == ["page 1", "page 2"])
  }
}
// end sample
