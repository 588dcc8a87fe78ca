import Foundation
import LockSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One thread, at the lowest priority a process may give without privileges, that runs the
/// store's writes one after another.
///
/// A fact's write starts as the fact is drawn, and a person's next key often comes before
/// it ends. On a machine of two cores, a write at the key's own priority takes a core from
/// it; at the lowest, the scheduler hands the core to the key at once and the write goes on
/// when the key is done. The thread waits on a condition between writes, using no CPU, and
/// ends when its store is gone.
final class BackgroundWriteThread: Sendable {
  private let queue = JobQueue()

  deinit { queue.close() }

  /// Runs `body` on the thread and returns what it returns.
  func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    // Handed back through a lock, which ThreadSanitizer sees, rather than through the
    // continuation alone, which it does not.
    let outcome = Locked<Result<T, any Error>?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.add {
        let result = Result { try body() }
        outcome.withLock { $0 = result }
        continuation.resume()
      }
    }
    guard let result = outcome.withLock({ $0 }) else { throw CancellationError() }
    return try result.get()
  }
}

/// The jobs waiting for the thread, and whether its owner is gone.
private final class JobQueue: @unchecked Sendable {
  // Every stored property is read and written with `condition` locked.
  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []
  private var closed = false
  private var started = false

  func add(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    jobs.append(job)
    let start = !started
    started = true
    condition.signal()
    condition.unlock()
    if start { Thread.detachNewThread { [self] in work() } }
  }

  func close() {
    condition.lock()
    closed = true
    condition.signal()
    condition.unlock()
  }

  private func work() {
    Self.lowerPriority()
    while let job = next() { job() }
  }

  /// The next job, waiting for one; `nil` once closed with nothing left to do.
  private func next() -> (@Sendable () -> Void)? {
    condition.lock()
    defer { condition.unlock() }
    while jobs.isEmpty && !closed { condition.wait() }
    return jobs.isEmpty ? nil : jobs.removeFirst()
  }

  /// Nice 19 for this thread alone: on Linux the nice value is the thread's, and process 0
  /// names the calling thread.
  private static func lowerPriority() {
    #if os(Linux)
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
    #endif
  }
}
