// Two tasks that wait on each other in one order only: the guest rings the front bell and
// waits at the back, the host waits at the front and then rings the back bell; a bell rung
// before anyone waits is lost, so if the guest rings first, both wait forever.

import TaskProvidingTesting

/// Wakes whoever waits when it rings; a ring with no one waiting is lost.
@MainActor
final class Doorbell {
  private var waiter: CheckedContinuation<Void, Never>?

  func wait() async { await withCheckedContinuation { waiter = $0 } }

  func ring() {
    waiter?.resume()
    waiter = nil
  }
}

/// The fix: a bell that remembers a ring until someone waits.
@MainActor
final class Latch {
  private var waiter: CheckedContinuation<Void, Never>?
  private var isRung = false

  func wait() async {
    guard !isRung else { return }
    await withCheckedContinuation { waiter = $0 }
  }

  func ring() {
    isRung = true
    waiter?.resume()
    waiter = nil
  }
}

/// Where each side does some work between its steps.
actor Workshop {
  func work() {}
}

extension CatalogEntry {
  static let waitingOnEachOther = CatalogEntry(
    name: "two tasks that wait on each other in one order only",
    summary: "a ring comes before the wait it was meant for, so both sides wait forever",
    bug: { _ in
      let (front, back) = (Doorbell(), Doorbell())
      try await handshake(
        ringFront: front.ring, waitFront: front.wait, ringBack: back.ring, waitBack: back.wait)
    },
    fixed: { _ in
      let (front, back) = (Latch(), Latch())
      try await handshake(
        ringFront: front.ring, waitFront: front.wait, ringBack: back.ring, waitBack: back.wait)
    })

  @MainActor
  private static func handshake(
    ringFront: @escaping @MainActor () -> Void, waitFront: @escaping @MainActor () async -> Void,
    ringBack: @escaping @MainActor () -> Void, waitBack: @escaping @MainActor () async -> Void
  ) async throws {
    let (porch, hall) = (Workshop(), Workshop())
    let guest = Task(name: "guest") {
      await porch.work()
      ringFront()
      await waitBack()
    }
    let host = Task(name: "host") {
      await hall.work()
      await waitFront()
      ringBack()
    }
    await guest.value
    await host.value
  }
}
