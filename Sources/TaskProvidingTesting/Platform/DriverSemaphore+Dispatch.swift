#if canImport(Dispatch)
  import Dispatch

  /// What a thread that drives a scope sleeps on while it waits for a job from another
  /// thread: a Dispatch semaphore.
  final class DriverSemaphore: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// A semaphore no one has signalled.
    init() {}

    /// Wakes the one sleeper, or the next to sleep.
    func signal() { semaphore.signal() }

    /// Sleeps until signalled or until `nanoseconds` pass; true if signalled.
    func wait(nanoseconds: Int) -> Bool {
      semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
  }
#endif
