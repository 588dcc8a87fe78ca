// A state machine's `precondition` reached by one interleaving. A transfer ends once, as
// finished or as failed; each path checks that it is still running, awaits its journal entry,
// then asserts the state it checked and moves on. When the failure comes while the finish is
// being journaled, both pass the check and the second trips the precondition. Tapping
// "finish" and "fail" one after the other never shows it: the second tap must land inside
// the first's await. The fix moves the state before the await.

import TaskProvidingTesting

/// A transfer's state machine.
@MainActor
final class Transfer {
  enum State: Equatable, Sendable {
    case running
    case finished
    case failed
  }

  private(set) var state = State.running
  /// Whether a path moves the state before it awaits the journal (the fix).
  private let movesFirst: Bool
  private let journal: @Sendable (State) async throws -> Void

  init(movesFirst: Bool, journal: @escaping @Sendable (State) async throws -> Void) {
    self.movesFirst = movesFirst
    self.journal = journal
  }

  func end(as outcome: State) async {
    guard state == .running else { return }
    if movesFirst { state = outcome }
    try? await journal(outcome)
    if !movesFirst {
      precondition(state == .running, "a transfer ends once")
      state = outcome
    }
  }
}

extension CatalogEntry {
  public static let transferEndsTwice = CatalogEntry(
    name: "a state machine's precondition reached by one interleaving",
    summary: "a failure lands while the finish is journaled, and the transfer ends twice",
    bug: { exploration in endTwice(exploration, movesFirst: false) },
    fixed: { exploration in endTwice(exploration, movesFirst: true) })

  @MainActor
  private static func endTwice(_ exploration: Exploration, movesFirst: Bool) {
    let journal = ControlledFunction<Transfer.State, Void>("journal", answers: { _ in })
    let transfer = Transfer(movesFirst: movesFirst, journal: { try await journal.function($0) })
    let provider = exploration.provider
    exploration.action("finish") {
      provider.task(name: "finish") { await transfer.end(as: .finished) }
    }
    exploration.action("fail") {
      provider.task(name: "fail") { await transfer.end(as: .failed) }
    }
    exploration.atEnd("the transfer has ended") { transfer.state != .running }
  }
}
