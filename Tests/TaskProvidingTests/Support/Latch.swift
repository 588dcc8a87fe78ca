import ConcurrencyExtras
import TaskProviding
import TaskProvidingTesting
import Testing

/// A one-shot signal: tasks wait on it until the test opens it. Waiting ends early if the
/// waiting task is cancelled, so a task stuck on a latch can always be cancelled.
final class Latch: Sendable {
  private let stream: AsyncStream<Never>
  private let continuation: AsyncStream<Never>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  func open() { continuation.finish() }

  /// Only one task may wait on a latch.
  func wait() async {
    for await _ in stream {}
  }
}
