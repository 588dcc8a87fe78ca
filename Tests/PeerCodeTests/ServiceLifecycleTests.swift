import Logging
import ServiceLifecycle
import TaskProvidingTesting
import Testing

/// What services did, in order.
actor ServiceEvents {
  private(set) var events: [String] = []
  func add(_ event: String) { events.append(event) }
}

/// A service that runs until graceful shutdown, saying when it starts and stops.
struct WaitingService: Service {
  let name: String
  let events: ServiceEvents

  func run() async throws {
    await events.add("\(name) starts")
    try? await gracefulShutdown()
    await events.add("\(name) stops")
  }
}

/// A service that ends at once.
struct ShortService: Service {
  let events: ServiceEvents

  func run() async throws { await events.add("short ends") }
}

/// swift-server/swift-service-lifecycle 2.13.0: `ServiceGroup`.
extension PeerCodeTests {
  static let quiet = Logger(label: "peer-code", factory: { _ in SwiftLogNoOpLogHandler() })

  /// "it will gracefully shut down each service one by one in reverse startup order.
  /// Importantly, the ``ServiceGroup`` is going to wait for the ``Service/run()`` method to
  /// return before triggering the graceful shutdown of the next service" (Adopting
  /// ServiceLifecycle in applications.md:96–100): a shutdown triggered at any point stops
  /// the second service before the first, and `run()` returns.
  @Test func aServiceGroupShutsDownInReverseOrder() async {
    let scenario: @MainActor @Sendable (Exploration) async -> Void = { exploration in
      let events = ServiceEvents()
      let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
          services: [
            .init(service: WaitingService(name: "first", events: events)),
            .init(service: WaitingService(name: "second", events: events)),
          ],
          logger: Self.quiet))
      let running = Task { try await group.run() }
      exploration.action("shut down") { Task { await group.triggerGracefulShutdown() } }
      let ran = await running.result
      let order = await events.events
      exploration.atEnd("run returned, the second stopped before the first") {
        guard case .success = ran else { return false }
        let stops = order.filter { $0.hasSuffix("stops") }
        return stops == ["second stops", "first stops"]
          || (stops == ["first stops"] && !order.contains("second starts"))
          || stops.isEmpty
      }
    }
    _ = await Self.exploreEveryWay(costly: true, scenario)

  }

  /// A service that ends early, set to `.gracefullyShutdownGroup`: "Gracefully shut down the
  /// service group" (ServiceGroupConfiguration.swift:70): the other service stops gracefully
  /// and `run()` returns.
  @Test func aServiceThatEndsEarlyShutsTheGroupDownGracefully() async {
    _ = await Self.exploreEveryWay(costly: true) { exploration in
      let events = ServiceEvents()
      let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
          services: [
            .init(service: WaitingService(name: "waiting", events: events)),
            .init(
              service: ShortService(events: events),
              successTerminationBehavior: .gracefullyShutdownGroup),
          ],
          logger: Self.quiet))
      let ran = await Task { try await group.run() }.result
      let order = await events.events
      exploration.atEnd("run returned, and the waiting service stopped gracefully") {
        guard case .success = ran else { return false }
        return order.contains("short ends")
          && (order.contains("waiting stops") || !order.contains("waiting starts"))
      }
    }
  }
}
