// Only a child process, and the test process that starts it, use this: Linux alone.
#if os(Linux) && !TP_NO_CHILD_PROCESS
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// A folder of its own under the temporary directory, for a child process's files.
  struct TemporaryFolder {
    let path: String

    /// A new, empty folder; `nil` if none could be made.
    init?() {
      let base = environmentValue("TMPDIR") ?? "/tmp"
      var template = Array((base + "/task-providing-XXXXXX").utf8CString)
      guard let made = mkdtemp(&template) else { return nil }
      path = String(cString: made)
    }

    /// Removes the folder and the files in it (it holds no folders).
    func remove() {
      if let folder = opendir(path) {
        while let entry = readdir(folder) {
          let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
          }
          if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(folder)
      }
      rmdir(path)
    }
  }
#endif
