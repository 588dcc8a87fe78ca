#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// The address of the symbol `name` among the images the process has loaded, or `nil`.
  func loadedSymbol(_ name: String) -> UnsafeMutableRawPointer? {
    dlsym(dlopen(nil, RTLD_NOW), name)
  }
#endif
