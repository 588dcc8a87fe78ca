// From the field: sourcekit-lsp loses a cancellation at an AsyncStream hand-off
// (https://github.com/swiftlang/sourcekit-lsp/pull/2152). A job hands its running work to a
// result task through a stream; if the result task is cancelled before the hand-off, its
// loop ends, the handle yielded after that is dropped, and nobody cancels the work. Shrunk
// and retold; the work waits on the exploration's clock.

import LockSupport
import TaskProviding
import TaskProvidingTesting

/// What became of a job's work, readable by a check that cannot await.
final class WorkLog: Sendable {
  private let log = Locked<[String]>([])
  var events: [String] { log.withLock { $0 } }
  func note(_ event: String) { log.withLock { $0.append(event) } }
}

/// A job whose work runs in a task of its own, handed to the result task through a stream.
/// Flawed unless `rechecks`: a handle yielded after the result task was cancelled is never
/// cancelled. The fix looks at the flag again after the hand-off and cancels the work itself.
actor HandedOffJob {
  let handles: AsyncStream<Task<Void, Never>>
  private let continuation: AsyncStream<Task<Void, Never>>.Continuation
  /// Whether the result task's cancellation handler ran: set from that handler, which
  /// cannot await.
  nonisolated let resultCancelled = Locked(false)
  private let rechecks: Bool

  init(rechecks: Bool) {
    (handles, continuation) = AsyncStream.makeStream()
    self.rechecks = rechecks
  }

  func execute(_ work: @escaping @Sendable () async -> Void) {
    let running = Task { await work() }
    continuation.yield(running)
    if rechecks, resultCancelled.withLock({ $0 }) { running.cancel() }
  }
}

extension CatalogEntry {
  static let cancellationLostAtHandOff = CatalogEntry(
    name: "a cancellation lost at an AsyncStream hand-off (sourcekit-lsp)",
    summary: "the result task is cancelled before the work's handle arrives, so the work runs on",
    bug: { exploration in
      let job = HandedOffJob(rechecks: false)
      try await cancelDuringHandOff(
        exploration, handles: job.handles, execute: { await job.execute($0) },
        resultCancelled: job.resultCancelled)
    },
    fixed: { exploration in
      let job = HandedOffJob(rechecks: true)
      try await cancelDuringHandOff(
        exploration, handles: job.handles, execute: { await job.execute($0) },
        resultCancelled: job.resultCancelled)
    })

  @MainActor
  private static func cancelDuringHandOff(
    _ exploration: Exploration, handles: AsyncStream<Task<Void, Never>>,
    execute: @escaping @Sendable (@escaping @Sendable () async -> Void) async -> Void,
    resultCancelled: Locked<Bool>
  ) async throws {
    let log = WorkLog()
    let clock = exploration.clock
    let result = Task {
      await withTaskCancellationHandler {
        for await running in handles {
          await withTaskCancellationHandler {
            await running.value
          } onCancel: {
            running.cancel()
          }
          return
        }
      } onCancel: {
        resultCancelled.withLock { $0 = true }
      }
    }
    let scheduler = Task {
      await execute {
        do {
          try await clock.sleep(for: .seconds(1))  // virtual time
          log.note("finished")
        } catch {
          log.note("stopped")
        }
      }
    }
    result.cancel()
    log.note("cancelled")
    await scheduler.value
    await result.value
    // The work may still be asleep: the check comes once every task has ended.
    exploration.atEnd("work cancelled before it finished is stopped") {
      let events = log.events
      return events.firstIndex(of: "cancelled").map { !events[$0...].contains("finished") } ?? true
    }
  }
}
