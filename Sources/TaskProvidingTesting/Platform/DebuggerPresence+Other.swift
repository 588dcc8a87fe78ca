#if !os(Linux) && !canImport(Darwin)
  /// Elsewhere no way to tell is known: no debugger is ever seen.
  func debuggerIsAttached() -> Bool { false }
#endif
