import Foundation
import Glibc

/// Runs `body`, which blocks, on a thread of its own and returns its result. Blocking one of
/// the few threads tasks run on, or the main actor, would stall every other test in the
/// process.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
    Thread.detachNewThread { continuation.resume(returning: body()) }
  }
}

/// Whether `descriptor` became ready for `events`, hung up or failed within `limit` (a
/// failure bound). It blocks: call it inside ``onOwnThread(_:)``.
func waitForDescriptor(_ descriptor: Int32, events: Int16, upTo limit: Duration) -> Bool {
  let milliseconds = Int32(clamping: Int64((limit / .milliseconds(1)).rounded(.up)))
  var poller = pollfd(fd: descriptor, events: events, revents: 0)
  while true {
    let result = poll(&poller, 1, milliseconds)  // failure bound
    if result < 0, errno == EINTR { continue }
    return result > 0
  }
}
