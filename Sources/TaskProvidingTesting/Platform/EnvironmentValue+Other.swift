#if !(canImport(Darwin) || canImport(Glibc) || canImport(Musl))
  /// Where no C library offers the environment, every variable reads as unset: the toolkit's
  /// settings keep their defaults.
  func environmentValue(_ name: String) -> String? { nil }
#endif
