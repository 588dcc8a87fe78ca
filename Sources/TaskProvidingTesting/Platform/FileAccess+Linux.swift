// Only a child process, and the test process that starts it, use this: Linux alone.
#if os(Linux) && !TP_NO_CHILD_PROCESS
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// A file the toolkit writes whole lines to, with `write(2)` and no buffer, so that nothing
  /// waits in memory when the process dies.
  struct OutputFile: Sendable {
    private let descriptor: Int32

    /// The file at `path`, made if missing, written at its end (`appending`) or from empty;
    /// `nil` if it cannot be opened.
    init?(path: String, appending: Bool) {
      let mode = appending ? O_APPEND : O_TRUNC
      descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | mode, 0o600)
      guard descriptor >= 0 else { return nil }
    }

    /// Writes all of `text`; false if the system refused.
    @discardableResult
    func write(_ text: String) -> Bool { writeAll(descriptor, text) }

    /// Closes the file; it is not written again.
    func close() { closeDescriptor(descriptor) }
  }

  /// The whole file at `path`, or nothing if it cannot be read.
  func readWholeFile(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private func writeAll(_ descriptor: Int32, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }

  private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
#endif
