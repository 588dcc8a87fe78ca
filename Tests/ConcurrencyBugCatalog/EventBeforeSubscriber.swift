// An event posted before its subscriber subscribed: a listener subscribes inside the task it
// starts, and the event posted right after starting it comes before that task has run.

import TaskProvidingTesting

/// Posts events to whoever listens now; one who subscribes later misses what came before.
@MainActor
final class EventBus {
  private var listeners: [AsyncStream<String>.Continuation] = []
  private var isClosed = false

  /// Events posted from now on, until the bus closes.
  func events() -> AsyncStream<String> {
    let (events, continuation) = AsyncStream.makeStream(of: String.self)
    if isClosed { continuation.finish() } else { listeners.append(continuation) }
    return events
  }

  func post(_ event: String) {
    for listener in listeners { listener.yield(event) }
  }

  func close() {
    isClosed = true
    for listener in listeners { listener.finish() }
  }
}

/// Collects the bus's events. Flawed: it subscribes only once its task runs.
@MainActor
enum LateListener {
  static func start(on bus: EventBus) -> Task<[String], Never> {
    Task(name: "listener") {
      var heard: [String] = []
      for await event in bus.events() { heard.append(event) }
      return heard
    }
  }
}

/// The fix: subscribe before starting the task, then listen in it.
@MainActor
enum EarlyListener {
  static func start(on bus: EventBus) -> Task<[String], Never> {
    let events = bus.events()
    return Task(name: "listener") {
      var heard: [String] = []
      for await event in events { heard.append(event) }
      return heard
    }
  }
}

extension CatalogEntry {
  static let eventBeforeSubscriber = CatalogEntry(
    name: "an event posted before its subscriber subscribed",
    summary: "the sign-in event is posted before the listener's task subscribes, and is lost",
    bug: { exploration in try await signIn(exploration, listen: LateListener.start) },
    fixed: { exploration in try await signIn(exploration, listen: EarlyListener.start) })

  @MainActor
  private static func signIn(
    _ exploration: Exploration, listen: @MainActor (EventBus) -> Task<[String], Never>
  ) async throws {
    let bus = EventBus()
    let listener = listen(bus)
    bus.post("signed in")
    bus.close()
    let heard = await listener.value
    exploration.atEnd("the listener hears the sign-in") { heard == ["signed in"] }
  }
}
