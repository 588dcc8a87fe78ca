import FactStore
import TaskProviding

/// The feature's one chain of writes to the store, and its reading of earlier runs.
extension NumberFactFeature {
  /// Writes `fact`, and where the person is, to the store, after the writes before it.
  func remember(_ fact: NumberFact) {
    let shownAt = now()
    let session = FactStore.Session(count: state.count, kind: state.kind)
    write(name: "store \(fact.number) \(fact.kind.rawValue)") {
      try await $0.recordShown([fact], shownAt, session)
    }
  }

  /// Writes where the person is (the count and kind) to the store, after the writes before
  /// it, and returns when it has ended: what the app does as it quits.
  package func rememberSession() async {
    let session = FactStore.Session(count: state.count, kind: state.kind)
    await write(name: "store the session") { try await $0.saveSession(session) }?.value
  }

  /// The one chain of writes to the store: spawns `operation` through the task provider,
  /// after the write before it, so the store keeps facts in the order they were shown; a
  /// failure sets the state's `storeMessage`. `nil` when there is no store.
  @discardableResult
  private func write(
    name: String, _ operation: @escaping @Sendable (FactStore) async throws -> Void
  ) -> Task<Void, Never>? {
    guard let store else { return nil }
    let previous = lastWrite
    let write = taskProvider.task(name: name) {
      await previous?.value
      do {
        try await operation(store)
      } catch {
        self.storeFailed(error)
      }
    }
    lastWrite = write
    return write
  }

  /// Reads the facts of earlier runs into ``history``, before this session's, and, when
  /// `session` is true, moves to the count and kind where the person left off, unless they
  /// have already moved. Returns when that is done; a store that fails sets the state's
  /// `storeMessage` and changes nothing else.
  package func restoreFromStore(session: Bool) async {
    await startRestoringFromStore(session: session)?.value
  }

  /// Starts what ``restoreFromStore(session:)`` does and returns at once, with its task;
  /// `nil` when there is no store.
  @discardableResult
  package func startRestoringFromStore(session: Bool) -> Task<Void, Never>? {
    guard let store else { return nil }
    return taskProvider.task(name: "restore from store") {
      do {
        let stored = try await store.history(.init(limit: self.seen.limit))
        let left = session ? try await store.loadSession() : nil
        self.restore(stored, left)
      } catch {
        self.storeFailed(error)
      }
    }
  }

  private func restore(_ stored: [NumberFact], _ session: FactStore.Session?) {
    seen.restore(earlier: stored)
    if let session, !hasMoved {
      state.count = session.count
      state.kind = session.kind
    }
  }

  private func storeFailed(_ error: any Error) {
    if error is CancellationError || state.storeMessage != nil { return }
    state.storeMessage = FactText.sanitize("\(error)")
  }
}
