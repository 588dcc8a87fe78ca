// A timeout racing its answer, each ending the request without looking at what the other
// did: an answer that came just before the timeout is overwritten by it, and one that comes
// just after overwrites the timeout the caller was already told about. Written with plain
// task sleeps, on the scope's virtual time.

import TaskProvidingTesting

/// A request's outcome, written by whichever of the answer and the timeout comes.
actor PendingRequest {
  enum State: Equatable, Sendable {
    case waiting
    case answered(String)
    case timedOut
  }
  private(set) var state = State.waiting
  /// What came, in order.
  private(set) var events: [State] = []
  /// Whether only the first of the two may end the request (the fix).
  let firstWins: Bool

  init(firstWins: Bool) { self.firstWins = firstWins }

  func end(_ outcome: State) {
    events.append(outcome)
    if firstWins, state != .waiting { return }
    state = outcome
  }
}

extension CatalogEntry {
  static let timeoutOverwritesAnswer = CatalogEntry(
    name: "a timeout racing its answer",
    summary: "whichever of the answer and the timeout comes last decides the request",
    bug: { exploration in try await raceTheTimeout(exploration, PendingRequest(firstWins: false)) },
    fixed: { exploration in try await raceTheTimeout(exploration, PendingRequest(firstWins: true))
    })

  @MainActor
  private static func raceTheTimeout(_ exploration: Exploration, _ request: PendingRequest)
    async throws
  {
    let lookUp = ControlledFunction<Int, String>("look-up", answers: { "fact \($0)" })
    // Plain tasks, not detached: the look-up must know the exploration it answers in.
    let answer = Task(name: "answer") {
      if let fact = try? await lookUp.function(7) { await request.end(.answered(fact)) }
    }
    let timeout = Task(name: "timeout") {
      try? await Task.sleep(for: .seconds(1))  // virtual time
      await request.end(.timedOut)
    }
    _ = await (answer.value, timeout.value)
    let (state, events) = (await request.state, await request.events)
    exploration.atEnd("the first of the answer and the timeout decides") {
      state == events.first
    }
  }
}
