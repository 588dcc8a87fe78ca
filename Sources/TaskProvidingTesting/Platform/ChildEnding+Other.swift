#if !os(Linux) || TP_NO_CHILD_PROCESS
  /// No child is ever started here, so none ends by a signal to name.
  func signalName(_ number: Int32) -> String? { nil }

  /// No child is ever started here, so this process is never one.
  func exitChild(_ code: Int32) -> Never {
    preconditionFailure("a child exploration ended where none can start")
  }
#endif
