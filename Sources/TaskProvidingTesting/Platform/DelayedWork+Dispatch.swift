#if canImport(Dispatch)
  import Dispatch

  /// Runs `work` once, on no particular thread, `nanoseconds` from now.
  func runLater(afterNanoseconds nanoseconds: Int, _ work: @escaping @Sendable () -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
  }
#endif
