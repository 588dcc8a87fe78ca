/// Where a task was spawned: the return addresses on the spawning thread's stack, captured as
/// the task is created; its first frame of the program's own code is the spawn's line.
///
/// A task's name is not readable from outside it, so a step names a task without one by
/// where it came from. Captured only while a schedule is narrated, with the C library's
/// `backtrace`, which walks the stack by its unwind tables on glibc and by its frame pointers on
/// Darwin, which always keeps them.
enum SpawnSite {
  private typealias Walk =
    @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int32)
    -> Int32
  private static let walk = loadedSymbol("backtrace")
    .map { unsafeBitCast($0, to: Walk.self) }

  /// The return addresses of the calling thread's stack, innermost first.
  static func capture() -> [CodeFrame] {
    guard let walk else { return [] }
    var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: 32)
    let count = addresses.withUnsafeMutableBufferPointer { walk($0.baseAddress!, 32) }
    return addresses.prefix(Int(max(count, 0))).compactMap { address in
      address.map { CodeFrame(address: UInt(bitPattern: $0), isReturnAddress: true) }
    }
  }
}
