import LockSupport
import TaskProviding

#if canImport(Runtime) && canImport(FoundationEssentials) && !TP_NO_SYMBOLICATION
  import FoundationEssentials
  import Runtime
#endif

/// A code address to name: the start of an async resume function, or a return address on a
/// thread's stack (which points just past its call).
struct CodeFrame: Hashable, Sendable {
  let address: UInt
  let isReturnAddress: Bool
}

/// What a code address is, as a person reads it.
struct CodeSymbol: Sendable, Equatable {
  /// The function: `ImageCache.image(_:)`, `a closure in Model.load()`.
  let function: String
  /// The file's name and the line: `ImageCache.swift:12`, when the binary has line tables.
  let place: String?
  /// Whether it is the program's own code: not the runtime's, the standard library's, a
  /// thunk's or the toolkit's (a held task's gate, a controlled call), whose frames are the
  /// test doubles' plumbing, not the code under test.
  let isProgramCode: Bool
}

/// Turns code addresses into symbols with the runtime's own symbolicator, once per address.
///
/// Names come from the symbol tables and cost microseconds; a source line comes from the
/// line tables and costs milliseconds a frame, so lines are read only for the frames a step
/// shows.
final class Symbolicator: Sendable {
  static let shared = Symbolicator()

  private struct Name: Sendable {
    let function: String
    let isProgramCode: Bool
  }

  private struct Cache {
    var names: [CodeFrame: Name?] = [:]
    var places: [CodeFrame: String?] = [:]
  }

  private let cache = Locked(Cache())
  /// Held while the runtime's symbolication reads an image's tables: its caches are not
  /// made for two threads at once, and stories are narrated on any thread. The reading
  /// itself runs on one thread (``ResidentThread``), where the runtime keeps the images it
  /// has read.
  private let reading = Locked(())

  /// The modules whose frames are plumbing.
  static let toolkitModules: Set<Substring> = [
    "TaskProvidingTesting", "TaskProviding",
  ]

  /// Reads the names of all `frames` at once, ahead of the calls that need them.
  func prepare(_ frames: [CodeFrame]) {
    let unknown = Array(Set(cache.withLock { cache in frames.filter { cache.names[$0] == nil } }))
    guard !unknown.isEmpty else { return }
    let found = reading.withLock { _ in
      ResidentThread.symbolication.run { Self.names(of: unknown) }
    }
    cache.withLock { cache in
      for (frame, name) in zip(unknown, found) { cache.names[frame] = .some(name) }
    }
  }

  /// The first of `frames` that is the program's own code, with its source line.
  func firstProgramSymbol(in frames: [CodeFrame]) -> CodeSymbol? {
    guard let (frame, function) = firstProgramFunction(in: frames) else { return nil }
    return CodeSymbol(function: function, place: place(of: frame), isProgramCode: true)
  }

  /// The first of `frames` that is the program's own code, and its function, without its
  /// source line: a line costs milliseconds to read.
  func firstProgramFunction(in frames: [CodeFrame]) -> (frame: CodeFrame, function: String)? {
    prepare(frames)
    let named = cache.withLock { cache in frames.map { (frame: $0, name: cache.names[$0] ?? nil) } }
    guard let (frame, name) = named.first(where: { $0.name?.isProgramCode == true }), let name
    else { return nil }
    return (frame, name.function)
  }

  /// The source line of `frame` (`ImageCache.swift:12`), read once.
  func place(of frame: CodeFrame) -> String? {
    if let known = cache.withLock({ $0.places[frame] }) { return known }
    let place = reading.withLock { _ in
      ResidentThread.symbolication.run { Self.place(of: frame) }
    }
    cache.withLock { $0.places[frame] = .some(place) }
    return place
  }

  /// The functions of `frames` that are the program's own code, innermost first.
  func programFunctions(in frames: [CodeFrame]) -> [String] {
    prepare(frames)
    return cache.withLock { cache in
      frames.compactMap { frame in
        (cache.names[frame] ?? nil).flatMap { $0.isProgramCode ? $0.function : nil }
      }
    }
  }

  /// The module a mangled Swift name belongs to: `$s20TaskProvidingTesting…` is in
  /// `TaskProvidingTesting`.
  static func module(ofMangled name: String) -> Substring? {
    guard name.hasPrefix("$s") else { return nil }
    let rest = name.dropFirst(2)
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard let length = Int(digits), length > 0 else { return nil }
    return rest.dropFirst(digits.count).prefix(length)
  }

  /// `closure #2 in closure #1 in Model.load()` reads as `a closure in Model.load()`: the
  /// line says which closure.
  static func readable(_ name: String) -> String {
    var rest = Substring(name)
    var inClosure = false
    while true {
      var word = rest
      if word.hasPrefix("implicit ") { word = word.dropFirst("implicit ".count) }
      guard word.hasPrefix("closure #"), let range = word.range(of: " in ") else { break }
      rest = word[range.upperBound...]
      inClosure = true
    }
    return inClosure ? "a closure in \(rest)" : String(rest)
  }

  /// A sanitizer's own code, linked into the test binary: under ThreadSanitizer the C
  /// library's `backtrace` is its interceptor, whose frame is the innermost of every capture.
  static func isSanitizerRuntime(_ rawName: String) -> Bool {
    ["__interceptor_", "___interceptor_", "__tsan_", "__asan_", "__ubsan_", "__sanitizer_"]
      .contains { rawName.hasPrefix($0) }
  }

  private static func names(of frames: [CodeFrame]) -> [Name?] {
    #if canImport(Runtime) && canImport(FoundationEssentials) && !TP_NO_SYMBOLICATION
      guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *),
        let symbolicated = backtrace(of: frames)?.symbolicated(with: images, options: [])
      else { return frames.map { _ in nil } }
      let found = symbolicated.frames.filter { !$0.inlined }
      guard found.count == frames.count else { return frames.map { _ in nil } }
      return found.map { frame in
        guard let symbol = frame.symbol, !symbol.rawName.isEmpty else { return nil }
        let module = Self.module(ofMangled: symbol.rawName)
        // `$ss…` and `$sS…` are the standard library's own substitutions.
        let isStandardLibrary =
          symbol.rawName.hasPrefix("$ss") || symbol.rawName.hasPrefix("$sS")
          || module == "Swift" || module == "_Concurrency"
        let isLibrary =
          isStandardLibrary || frame.isSwiftThunk || symbol.isSwiftThunk
          || symbol.isSystemFunction || symbol.imageName.hasPrefix("libswift")
          || symbol.imageName.hasPrefix("libdispatch") || symbol.name.hasPrefix("partial apply")
          || symbol.name.hasPrefix("thunk for") || symbol.name.hasPrefix("reabstraction thunk")
          || isSanitizerRuntime(symbol.rawName)
        // A runtime entry point defined in the program is the toolkit's stand-in for it
        // (`swift_task_create`, in CTaskCreation).
        let isToolkit =
          module.map(toolkitModules.contains) ?? symbol.rawName.hasPrefix("swift_task_")
        return Name(function: readable(symbol.name), isProgramCode: !isLibrary && !isToolkit)
      }
    #else
      return frames.map { _ in nil }
    #endif
  }

  /// `ImageCache.swift:12`, from the line tables, if the binary has them.
  private static func place(of frame: CodeFrame) -> String? {
    #if canImport(Runtime) && canImport(FoundationEssentials) && !TP_NO_SYMBOLICATION
      guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *),
        let symbolicated = backtrace(of: [frame])?.symbolicated(
          with: images, options: [.showSourceLocations]),
        let location = symbolicated.frames.last(where: { !$0.inlined })?.symbol?.sourceLocation,
        location.line > 0, let file = location.path.split(separator: "/").last
      else { return nil }
      return "\(file):\(location.line)"
    #else
      return nil
    #endif
  }

  #if canImport(Runtime) && canImport(FoundationEssentials) && !TP_NO_SYMBOLICATION
    /// This process's images, read once.
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    static let images: ImageMap? = {
      #if os(Linux) && canImport(Glibc) && (arch(x86_64) || arch(arm64)) && !TP_NO_SYMBOLICATION
        // From the loader's list: see `LoadedImage.all()` for why not `ImageMap.capture()`.
        // A backtrace's Codable form is the public way in to an image map.
        let map = Data(LoadedImage.compactImageMap(of: LoadedImage.all())).base64EncodedString()
        let wire = WireBacktrace(architecture: "", backtrace: "AgA=", imageMap: map)
        guard let data = try? JSONEncoder().encode(wire) else { return nil }
        return (try? JSONDecoder().decode(Backtrace.self, from: data))?.images
      #else
        return ImageMap.capture()
      #endif
    }()

    /// A backtrace's encoding with this process's images, read once, to put frames in.
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    private static let template: WireBacktrace? = {
      guard let images, let captured = try? Backtrace.capture(limit: 1, images: images),
        let encoded = try? JSONEncoder().encode(captured)
      else { return nil }
      return try? JSONDecoder().decode(WireBacktrace.self, from: encoded)
    }()

    /// A backtrace whose frames are `frames`, so the runtime's symbolicator can read them:
    /// built in the Compact Backtrace Format (swift/docs/CompactBacktraceFormat.md), with
    /// this process's image map.
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    private static func backtrace(of frames: [CodeFrame]) -> Backtrace? {
      guard var wire = template else { return nil }
      // Version 0, 64-bit words; then per frame an absolute return address (0x2F) or async
      // resume point (0x3F) of 8 bytes, most significant first; then the end.
      var bytes: [UInt8] = [0x02]
      for frame in frames {
        bytes.append(frame.isReturnAddress ? 0x2F : 0x3F)
        for shift in stride(from: 56, through: 0, by: -8) {
          bytes.append(UInt8(truncatingIfNeeded: UInt64(frame.address) >> UInt64(shift)))
        }
      }
      bytes.append(0x00)
      wire.backtrace = Data(bytes).base64EncodedString()
      guard let data = try? JSONEncoder().encode(wire) else { return nil }
      return try? JSONDecoder().decode(Backtrace.self, from: data)
    }

    /// The fields of a backtrace's encoding.
    private struct WireBacktrace: Codable {
      var architecture: String
      var backtrace: String
      var imageMap: String?
    }
  #endif
}
