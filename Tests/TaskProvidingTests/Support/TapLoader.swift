import TaskProviding
import TaskProvidingTesting

/// A model as an app writes one: a tap spawns a load through the provider. Shared by the
/// suites that run explorations beside other work.
@MainActor final class TapLoader {
  private let fetch: @Sendable (Int) async throws -> String
  private let taskProvider: any TaskProvider
  private(set) var text = ""

  init(fetch: @escaping @Sendable (Int) async throws -> String, taskProvider: any TaskProvider) {
    self.fetch = fetch
    self.taskProvider = taskProvider
  }

  func tapped(_ number: Int) {
    taskProvider.task(name: "load") {
      self.text = (try? await self.fetch(number)) ?? "failed"
    }
  }

  /// Three taps racing on one loader whose loads are answered, explored with `strategy`: a
  /// fact is shown at the end of every schedule.
  static func exploreThreeTaps(_ strategy: ExplorationStrategy) async -> ExplorationReport {
    await explore(strategy) { exploration in
      let fetch = ControlledFunction<Int, String>(answers: { "fact \($0)" })
      let model = TapLoader(fetch: fetch.function, taskProvider: exploration.provider)
      for number in 0..<3 {
        exploration.action("tap \(number)") { model.tapped(number) }
      }
      exploration.atEnd("a fact is shown") { model.text.hasPrefix("fact") }
    }
  }
}
