#if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// The value of the process's environment variable `name`, if it is set.
  func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
#endif
