#if os(Linux)
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// On Linux a tracer (a debugger) is named by a nonzero `TracerPid` in `/proc/self/status`
  /// (proc(5)).
  func debuggerIsAttached() -> Bool {
    let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 4096)
    var filled = 0
    while filled < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      filled += count
    }
    return DebuggerPresence.isTraced(status: String(decoding: bytes[..<filled], as: UTF8.self))
  }
#endif
