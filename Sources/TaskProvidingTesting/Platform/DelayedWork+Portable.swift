#if !canImport(Dispatch)
  /// Runs `work` once, on no particular thread, `nanoseconds` from now: without Dispatch, in
  /// a detached task that sleeps first.
  func runLater(afterNanoseconds nanoseconds: Int, _ work: @escaping @Sendable () -> Void) {
    Task.detached {
      try? await Task.sleep(for: .nanoseconds(max(nanoseconds, 0)))
      work()
    }
  }
#endif
