// From the field: grpc-swift-nio-transport's shutdown waited out a connection backoff
// (https://github.com/grpc/grpc-swift-nio-transport/pull/187): the backoff sleeps in a child
// of the run loop's task group, and shutdown neither cancelled it nor ended the loop, so the
// loop returned only once the sleep ended. Shrunk and retold on the exploration's clock.

import TaskProvidingTesting

/// A connection's run loop: events in, a backoff child after a failed attempt.
enum Subchannel {
  enum Event: Sendable { case connectFailed, backedOff, shutDown }

  /// Runs until shut down. With `cancelsBackoff` (the fix) shutdown cancels the backoff
  /// child; without, the group waits for it.
  static func run(
    _ events: AsyncStream<Event>, _ send: AsyncStream<Event>.Continuation,
    clock: ExplorationClock, cancelsBackoff: Bool
  ) async {
    await withTaskGroup(of: Void.self) { group in
      for await event in events {
        switch event {
        case .connectFailed:
          group.addTask {
            let backoff = Duration.seconds(120)
            guard (try? await clock.sleep(for: backoff)) != nil else { return }  // virtual time
            send.yield(.backedOff)
          }
        case .backedOff:
          send.finish()
        case .shutDown:
          if cancelsBackoff {
            group.cancelAll()
            send.finish()
          }
        }
      }
    }
  }
}

extension CatalogEntry {
  static let shutdownWaitsOutBackoff = CatalogEntry(
    name: "shutdown waits out a backoff sleep in a task group (grpc-swift)",
    summary: "the run loop returns only when the two-minute backoff ends",
    bug: { exploration in try await shutDownDuringBackoff(exploration, cancelsBackoff: false) },
    fixed: { exploration in try await shutDownDuringBackoff(exploration, cancelsBackoff: true) })

  @MainActor
  private static func shutDownDuringBackoff(
    _ exploration: Exploration, cancelsBackoff: Bool
  ) async throws {
    let clock = exploration.clock
    let (events, send) = AsyncStream.makeStream(of: Subchannel.Event.self)
    let loop = Task {
      await Subchannel.run(events, send, clock: clock, cancelsBackoff: cancelsBackoff)
      return clock.now
    }
    send.yield(.connectFailed)
    send.yield(.shutDown)
    let ended = await loop.value
    exploration.atEnd("the loop ends without waiting out the backoff") {
      ended.offset < .seconds(120)
    }
  }
}
