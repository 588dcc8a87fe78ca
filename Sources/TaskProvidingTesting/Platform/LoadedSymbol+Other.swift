#if !(canImport(Darwin) || canImport(Glibc) || canImport(Musl))
  /// Where no dynamic loader can be asked, no symbol is found: the runtime hooks read as
  /// missing, and the serial scheduler and the explorer say they are unavailable.
  func loadedSymbol(_ name: String) -> UnsafeMutableRawPointer? { nil }
#endif
