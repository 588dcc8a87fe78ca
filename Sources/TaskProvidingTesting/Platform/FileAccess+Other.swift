#if !(canImport(Darwin) || canImport(Glibc) || canImport(Musl))
  /// Where no C library offers files, none opens. Files serve only explorations in a child
  /// process, which such a platform cannot start (see ``ChildSpawn``).
  struct OutputFile: Sendable {
    /// Always `nil`: there are no files here.
    init?(path: String, appending: Bool) { return nil }

    /// Never called: no file opens.
    @discardableResult
    func write(_ text: String) -> Bool { false }

    /// Never called: no file opens.
    func close() {}
  }

  /// Nothing: there are no files here.
  func readWholeFile(_ path: String) -> String { "" }
#endif
