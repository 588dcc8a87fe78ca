#if !canImport(Dispatch)
  /// Whether the calling code runs on the runtime's main executor: without Dispatch there is
  /// no way to ask, so only a scope's driving thread counts as the main actor's.
  func runsOnMainQueue() -> Bool { false }
#endif
