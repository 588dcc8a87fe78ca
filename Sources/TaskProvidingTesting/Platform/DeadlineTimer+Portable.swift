#if !canImport(Dispatch)
  import LockSupport

  /// One timer that calls its handler at the deadline it was last armed for: without
  /// Dispatch, a detached task that sleeps until the deadline, replaced at each arming.
  ///
  /// A sleep ended just as it is replaced may still call the handler early; its callers
  /// check their deadlines when called and arm again, so an early call costs one check.
  final class DeadlineTimer: Sendable {
    private struct State {
      var handler: (@Sendable () -> Void)?
      var sleeper: Task<Void, Never>?
    }

    private let state = Locked(State())
    private static let origin = ContinuousClock.now

    /// A timer; unarmed until ``arm(at:)``.
    init(label: String) {}

    /// Sets the handler, once, and lets the timer fire.
    func start(_ handler: @escaping @Sendable () -> Void) {
      state.withLock { $0.handler = handler }
    }

    /// Fires at `deadline` (``now``'s scale), or never for `nil`; replaces the last deadline.
    func arm(at deadline: UInt64?) {
      state.withLock { state in
        state.sleeper?.cancel()
        state.sleeper = nil
        guard let deadline, let handler = state.handler else { return }
        state.sleeper = Task.detached {
          let now = DeadlineTimer.now
          let left = deadline > now ? deadline - now : 0
          do {
            try await Task.sleep(for: .nanoseconds(Int64(clamping: left)))
          } catch {
            return
          }
          handler()
        }
      }
    }

    /// Nanoseconds since an arbitrary start, never going back.
    static var now: UInt64 {
      let (seconds, attoseconds) = origin.duration(to: .now).components
      let whole = UInt64(clamping: seconds)
      guard whole < UInt64.max / 1_000_000_000 - 1 else { return .max }
      return whole * 1_000_000_000 + UInt64(clamping: attoseconds / 1_000_000_000)
    }
  }
#endif
