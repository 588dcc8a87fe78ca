#if canImport(Dispatch)
  import Dispatch

  /// One timer that calls its handler at the deadline it was last armed for: a Dispatch
  /// timer source on a serial queue of its own.
  final class DeadlineTimer: @unchecked Sendable {
    // Dispatch sources are safe to schedule from any thread; the type is not marked Sendable.
    private let source: any DispatchSourceTimer

    /// A timer whose handler will run on a queue named `label`; unarmed until ``arm(at:)``.
    init(label: String) {
      source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
      source.schedule(deadline: .distantFuture)
    }

    /// Sets the handler, once, and lets the timer fire.
    func start(_ handler: @escaping @Sendable () -> Void) {
      source.setEventHandler(handler: handler)
      source.activate()
    }

    /// Fires at `deadline` (``now``'s scale), or never for `nil`; replaces the last deadline.
    func arm(at deadline: UInt64?) {
      source.schedule(
        deadline: deadline.map { DispatchTime(uptimeNanoseconds: $0) } ?? .distantFuture)
    }

    /// Nanoseconds since an arbitrary start, never going back.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
  }
#endif
