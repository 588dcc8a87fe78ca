import LockSupport

/// An inner sequence for `flatMapLatest` that, on its first `next()`, says it waits, then
/// waits until its task is cancelled: what a network request or a socket does. It records
/// whether its task was cancelled, and can be let go at the end of a run so nothing is left
/// waiting.
struct WaitsForCancellation: AsyncSequence, Sendable {
  let probe: CancellationProbe

  func makeAsyncIterator() -> Iterator { Iterator(probe: probe) }

  struct Iterator: AsyncIteratorProtocol {
    let probe: CancellationProbe

    mutating func next() async -> Int? {
      let probe = probe
      await withTaskCancellationHandler {
        await withCheckedContinuation { probe.waits($0) }
      } onCancel: {
        probe.cancelled()
      }
      return nil
    }
  }
}

/// What a ``WaitsForCancellation`` saw: whether it waits, and whether its task was
/// cancelled.
final class CancellationProbe: Sendable {
  private struct State {
    var waiting: CheckedContinuation<Void, Never>?
    var watchers: [CheckedContinuation<Void, Never>] = []
    var hasWaited = false
    var wasCancelled = false
    var isLetGo = false
  }

  // A pthread mutex, which ThreadSanitizer sees; it cannot see `Synchronization.Mutex`.
  private let state = Locked(State())

  /// Whether the task iterating the sequence was cancelled.
  var wasCancelled: Bool { state.withLock { $0.wasCancelled } }

  /// Returns once the sequence's `next()` waits.
  func untilWaiting() async {
    await withCheckedContinuation { watcher in
      let waited = state.withLock { state in
        if !state.hasWaited { state.watchers.append(watcher) }
        return state.hasWaited
      }
      if waited { watcher.resume() }
    }
  }

  /// Lets the waiting `next()` return, as a cancellation would.
  func letGo() {
    let waiting = state.withLock { state in
      state.isLetGo = true
      defer { state.waiting = nil }
      return state.waiting
    }
    waiting?.resume()
  }

  fileprivate func waits(_ continuation: CheckedContinuation<Void, Never>) {
    let (watchers, endsAtOnce) = state.withLock { state in
      state.hasWaited = true
      defer { state.watchers = [] }
      if state.wasCancelled || state.isLetGo { return (state.watchers, true) }
      state.waiting = continuation
      return (state.watchers, false)
    }
    for watcher in watchers { watcher.resume() }
    if endsAtOnce { continuation.resume() }
  }

  fileprivate func cancelled() {
    state.withLock { $0.wasCancelled = true }
    letGo()
  }
}

/// A base for `flatMapLatest` that produces `first`, then, on its next `next()`, says it waits
/// and waits until its task is cancelled, as ``WaitsForCancellation`` does.
struct FirstThenWaitsForCancellation: AsyncSequence, Sendable {
  let first: Int
  let probe: CancellationProbe

  func makeAsyncIterator() -> Iterator { Iterator(first: first, probe: probe) }

  struct Iterator: AsyncIteratorProtocol {
    var first: Int?
    let probe: CancellationProbe

    mutating func next() async -> Int? {
      if let first {
        self.first = nil
        return first
      }
      var waits = WaitsForCancellation.Iterator(probe: probe)
      return await waits.next()
    }
  }
}

/// An inner sequence that produces one element once `probe`'s sequence waits, so that a
/// consumer gets it only while the base's task waits inside the base's `next()`; then it ends.
struct OneOnceWaiting: AsyncSequence, Sendable {
  let probe: CancellationProbe

  func makeAsyncIterator() -> Iterator { Iterator(probe: probe) }

  struct Iterator: AsyncIteratorProtocol {
    let probe: CancellationProbe
    var produced = false

    mutating func next() async -> Int? {
      guard !produced else { return nil }
      produced = true
      await probe.untilWaiting()
      return 0
    }
  }
}
