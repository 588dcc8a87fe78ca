#if !os(Linux) || TP_NO_CHILD_PROCESS
  /// Where no child process starts (see ``ChildSpawn``), no file opens: files serve only
  /// explorations in a child process.
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
