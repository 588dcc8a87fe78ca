import Configuration
import TaskProvidingTesting
import Testing

/// apple/swift-configuration 1.4.0: watching a value while its provider changes.
extension PeerCodeTests {
  /// "When a value changes, all active watchers are automatically notified with the new
  /// value" (MutableInMemoryProvider.swift:31): a watcher, while a task sets the value
  /// twice, sees values in the order set and ends on the last. It may miss one in between:
  /// each watcher keeps only the newest update not yet read (line 349).
  @Test func aWatcherEndsOnTheLastValueSet() async {
    _ = await Self.exploreEveryWay(costly: true) { exploration in
      let provider = MutableInMemoryProvider(initialValues: ["greeting": "v0"])
      let config = ConfigReader(provider: provider)
      let watcher = Task {
        try await config.watchString(forKey: "greeting") { updates in
          var seen: [String] = []
          for await value in updates {
            seen.append(value ?? "none")
            if value == "v2" { break }
          }
          return seen
        }
      }
      let writer = Task {
        provider.setValue("v1", forKey: "greeting")
        provider.setValue("v2", forKey: "greeting")
      }
      await writer.value
      let seen = (try? await watcher.value) ?? []
      exploration.atEnd("the values seen are in the order set and end on v2") {
        let order = ["v0", "v1", "v2"]
        let positions = seen.compactMap { order.firstIndex(of: $0) }
        return seen.last == "v2" && positions.count == seen.count
          && positions == positions.sorted()
      }
    }
  }
}
