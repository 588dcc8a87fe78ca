#if os(Linux) && canImport(Glibc) && (arch(x86_64) || arch(arm64)) && !TP_NO_SYMBOLICATION
  import CLinkMap
  import Glibc

  /// A code image the dynamic loader has loaded: the program or a shared library.
  struct LoadedImage: Equatable, Sendable {
    /// The file it was loaded from.
    let path: String
    /// Where its first segment starts in memory.
    let baseAddress: UInt64
    /// Where its last executable segment ends.
    let endOfText: UInt64
    /// Its GNU build ID, if it has one.
    let buildID: [UInt8]

    /// The images the loader has loaded, in address order.
    ///
    /// The runtime's own image capture on Linux reads `/proc/self/maps` and then looks for an
    /// ELF header at the start of every mapped file. A file another thread unmaps in between
    /// (SQLite's shared-memory file, for one) turns that read into a crash of the whole test
    /// process. The loader's list names only what it loaded, and it holds its lock while we
    /// read, so nothing in it can be unmapped under us.
    static func all() -> [LoadedImage] {
      var found: [LoadedImage] = []
      _ = withUnsafeMutablePointer(to: &found) { list in
        clinkmap_each_loaded_image(
          { image, context in
            guard let context else { return 0 }
            let list = context.assumingMemoryBound(to: [LoadedImage].self)
            if let image = LoadedImage(image.pointee) { list.pointee.append(image) }
            return 0
          }, list)
      }
      return found.sorted { $0.baseAddress < $1.baseAddress }
    }

    /// Reads one entry of the loader's list; nil for what has no file (the vDSO) or no code.
    private init?(_ info: CLinkMapImage) {
      let name = info.name.map { String(cString: $0) } ?? ""
      // The program itself is listed without a name. A library is listed by the path the
      // loader searched (`/lib/…`), which the runtime names by its real path (`/usr/lib/…`).
      guard let path = name.isEmpty ? Self.programPath() : Self.realPath(name),
        path.hasPrefix("/"),
        let headers = info.programHeaders?.assumingMemoryBound(to: Elf64_Phdr.self)
      else { return nil }
      let bias = UInt64(info.bias)
      var low = UInt64.max
      var endOfText: UInt64 = 0
      var buildID: [UInt8] = []
      for index in 0..<Int(info.programHeaderCount) {
        let header = headers[index]
        let start = bias &+ UInt64(header.p_vaddr)
        switch header.p_type {
        case UInt32(PT_LOAD):
          low = min(low, start)
          if header.p_flags & UInt32(PF_X) != 0 {
            endOfText = max(endOfText, start &+ UInt64(header.p_memsz))
          }
        case UInt32(PT_NOTE) where buildID.isEmpty:
          buildID = Self.buildID(inNotesAt: start, size: UInt64(header.p_memsz))
        default:
          break
        }
      }
      guard low != .max, endOfText > low else { return nil }
      let pageSize = UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 1))
      self.path = path
      self.baseAddress = low - low % pageSize
      self.endOfText = endOfText
      self.buildID = buildID
    }

    /// The `GNU` build-ID note among the notes at `address`, which the loader has mapped.
    private static func buildID(inNotesAt address: UInt64, size: UInt64) -> [UInt8] {
      let headerSize = UInt64(MemoryLayout<Elf64_Nhdr>.size)
      let end = address &+ size
      var note = address
      func aligned(_ value: UInt64) -> UInt64 { (value &+ 3) & ~3 }
      while note &+ headerSize <= end, let raw = UnsafeRawPointer(bitPattern: UInt(note)) {
        let header = raw.loadUnaligned(as: Elf64_Nhdr.self)
        let nameStart = note &+ headerSize
        let descriptionStart = aligned(nameStart &+ UInt64(header.n_namesz))
        let next = aligned(descriptionStart &+ UInt64(header.n_descsz))
        guard next <= end, next > note else { return [] }
        let name = UnsafeRawBufferPointer(
          start: raw + Int(headerSize), count: Int(header.n_namesz))
        if header.n_type == UInt32(NT_GNU_BUILD_ID), Array(name) == Array("GNU\0".utf8) {
          return Array(
            UnsafeRawBufferPointer(
              start: UnsafeRawPointer(bitPattern: UInt(descriptionStart)),
              count: Int(header.n_descsz)))
        }
        note = next
      }
      return []
    }

    private static func realPath(_ path: String) -> String {
      guard let resolved = realpath(path, nil) else { return path }
      defer { free(resolved) }
      return String(cString: resolved)
    }

    private static func programPath() -> String? {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The images in the Compact ImageMap Format (swift/docs/CompactImageMapFormat.md), the
    /// form in which the runtime's backtraces carry their image map.
    static func compactImageMap(of images: [LoadedImage], platform: String = platform())
      -> [UInt8]
    {
      // Version 0, 64-bit words; the platform, as a counted string; the number of images.
      var bytes: [UInt8] = [0x02]
      appendCount(platform.utf8.count, to: &bytes)
      bytes.append(contentsOf: platform.utf8)
      appendCount(images.count, to: &bytes)
      for image in images {
        // Absolute base, 8 bytes; offset to the end of text, 8 bytes. Each is read most
        // significant byte first and sign-extended, so a leading zero byte keeps it positive.
        bytes.append(0b0011_1111)
        appendWord(image.baseAddress, to: &bytes)
        appendWord(image.endOfText - image.baseAddress, to: &bytes)
        appendCount(image.buildID.count, to: &bytes)
        bytes.append(contentsOf: image.buildID)
        // The path as raw chunks of at most 63 bytes, then the end.
        var rest = Array(image.path.utf8)[...]
        while !rest.isEmpty {
          let chunk = rest.prefix(63)
          bytes.append(UInt8(chunk.count))
          bytes.append(contentsOf: chunk)
          rest = rest.dropFirst(chunk.count)
        }
        bytes.append(0x00)
      }
      return bytes
    }

    /// The platform as the runtime names it in an image map: `Linux (Debian GNU/Linux 12
    /// (bookworm))`, from the system's release file.
    static func platform() -> String {
      for file in ["/etc/os-release", "/usr/lib/os-release"] {
        guard let handle = fopen(file, "r") else { continue }
        defer { fclose(handle) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, handle) > 0, let line {
          var text = Substring(String(cString: line))
          while text.last == "\n" { text = text.dropLast() }
          guard text.hasPrefix("PRETTY_NAME=") else { continue }
          var value = text.dropFirst("PRETTY_NAME=".count)
          if value.count >= 2, value.first == "\"", value.last == "\"" {
            value = value.dropFirst().dropLast()
          }
          return "Linux (\(value))"
        }
      }
      return "Linux"
    }

    /// Seven bits a byte, most significant first, the top bit set on all but the last.
    private static func appendCount(_ count: Int, to bytes: inout [UInt8]) {
      var groups: [UInt8] = [UInt8(count & 0x7F)]
      var rest = count >> 7
      while rest > 0 {
        groups.append(UInt8(rest & 0x7F) | 0x80)
        rest >>= 7
      }
      bytes.append(contentsOf: groups.reversed())
    }

    private static func appendWord(_ word: UInt64, to bytes: inout [UInt8]) {
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
  }
#endif
