import TaskProviding

#if canImport(Runtime) && canImport(FoundationEssentials)
  import FoundationEssentials
  import Runtime
#endif

/// Where a suspended task will go on: the function and source line of the code after its
/// `await`, read from the task's resume function and its chain of async frames, then
/// symbolicated.
///
/// It reads the runtime's task layout (the resume function and context that follow the job
/// header, as `swift/ABI/Task.h` lays them out on 64-bit platforms) and only ever from a task
/// that is parked in a scope's queue, never from one that runs. A layout it does not
/// recognise, or a binary without symbols, gives `nil`: a step is then named by its task
/// alone.
struct ResumePoint: Sendable, Equatable {
  /// The function, as a person reads it: `ImageCache.image(_:)`.
  let function: String
  /// The file's name and the line: `ImageCache.swift:12`.
  let place: String?

  /// The code addresses a parked task will run through as it resumes, innermost first.
  static func addresses(ofTask address: UInt) -> [UInt] {
    guard MemoryLayout<UInt>.size == 8, address != 0, address % 16 == 0 else { return [] }
    let task = UnsafeRawPointer(bitPattern: address)!
    var addresses = [task.load(fromByteOffset: 56, as: UInt.self)]
    var context = task.load(fromByteOffset: 64, as: UInt.self)
    // The context chain: each frame's parent and the function its parent resumes in.
    while context != 0, context % 8 == 0, addresses.count < 12 {
      let frame = UnsafeRawPointer(bitPattern: context)!
      addresses.append(frame.load(fromByteOffset: 8, as: UInt.self))
      context = frame.load(as: UInt.self)
    }
    return addresses.filter { $0 != 0 }
  }

  /// The first frame among `addresses` that is the program's own code: not the runtime's, a
  /// thunk's or the toolkit's (a held task's gate, a controlled call), whose resumptions are
  /// the test doubles' plumbing, not the code under test.
  static func first(in addresses: [UInt]) -> ResumePoint? {
    Symbolicator.shared.first(in: addresses)
  }

  /// The modules whose frames are passed over.
  static let toolkitModules: Set<Substring> = [
    "TaskScheduling", "TaskProvidingTesting", "TaskProviding",
  ]

  /// The module a mangled Swift name belongs to: `$s20TaskProvidingTesting…` is in
  /// `TaskProvidingTesting`.
  static func module(ofMangled name: String) -> Substring? {
    guard name.hasPrefix("$s") else { return nil }
    let rest = name.dropFirst(2)
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard let length = Int(digits), length > 0 else { return nil }
    return rest.dropFirst(digits.count).prefix(length)
  }
}

/// Turns code addresses into function names and source lines, once per address.
private final class Symbolicator: Sendable {
  static let shared = Symbolicator()
  private let cache = Locked<[UInt: ResumePoint?]>([:])

  func first(in addresses: [UInt]) -> ResumePoint? {
    let known = cache.withLock { cache in addresses.map { cache[$0] } }
    var unknown = [UInt]()
    for (address, point) in zip(addresses, known) where point == nil { unknown.append(address) }
    if !unknown.isEmpty {
      let found = Self.symbolicate(unknown)
      cache.withLock { cache in
        for (address, point) in zip(unknown, found) { cache[address] = .some(point) }
      }
    }
    // The first frame with a source line: a frame without one is library code inlined
    // from its interface (`Clock.sleep(for:)`), unless nothing here has lines at all.
    return cache.withLock { cache in
      let points = addresses.compactMap { cache[$0] ?? nil }
      return points.first { $0.place != nil } ?? points.first
    }
  }

  /// One point per address, `nil` where the address is not the program's own code.
  private static func symbolicate(_ addresses: [UInt]) -> [ResumePoint?] {
    #if canImport(Runtime) && canImport(FoundationEssentials)
      guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *),
        let backtrace = backtrace(of: addresses),
        let symbolicated = backtrace.symbolicated(options: [.showSourceLocations])
      else { return addresses.map { _ in nil } }
      let frames = symbolicated.frames.filter { !$0.inlined }
      guard frames.count == addresses.count else { return addresses.map { _ in nil } }
      return frames.map { frame in
        guard let symbol = frame.symbol, !symbol.rawName.isEmpty, !frame.isSwiftThunk,
          !symbol.isSwiftThunk, !symbol.imageName.contains("swift_Concurrency"),
          !symbol.name.hasPrefix("partial apply"), !symbol.name.hasPrefix("thunk for"),
          !symbol.name.hasPrefix("reabstraction thunk"),
          !(ResumePoint.module(ofMangled: symbol.rawName).map(ResumePoint.toolkitModules.contains)
            ?? false)
        else { return nil }
        let place = symbol.sourceLocation.flatMap { location -> String? in
          guard location.line > 0, let file = location.path.split(separator: "/").last else {
            return nil
          }
          return "\(file):\(location.line)"
        }
        return ResumePoint(function: readable(symbol.name), place: place)
      }
    #else
      return addresses.map { _ in nil }
    #endif
  }

  /// `closure #2 in closure #1 in Model.load()` reads as `a closure in Model.load()`: the
  /// line says which closure.
  private static func readable(_ name: String) -> String {
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

  #if canImport(Runtime) && canImport(FoundationEssentials)
    /// A backtrace whose frames are `addresses`, each an async resume point, so the runtime's
    /// symbolicator can read them: built in the Compact Backtrace Format (swift/docs/
    /// CompactBacktraceFormat.md), with this process's image map.
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    private static func backtrace(of addresses: [UInt]) -> Backtrace? {
      guard let captured = try? Backtrace.capture(limit: 1),
        let encoded = try? JSONEncoder().encode(captured),
        var wire = try? JSONDecoder().decode(WireBacktrace.self, from: encoded)
      else { return nil }
      // Version 0, 64-bit words; then per frame an absolute async resume point of 8 bytes,
      // most significant first; then the end.
      var bytes: [UInt8] = [0x02]
      for address in addresses {
        bytes.append(0x3F)
        for shift in stride(from: 56, through: 0, by: -8) {
          bytes.append(UInt8(truncatingIfNeeded: UInt64(address) >> UInt64(shift)))
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
