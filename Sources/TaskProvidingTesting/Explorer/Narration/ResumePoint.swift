/// Where a parked task will go on: the code addresses of its resume function and of its
/// chain of async frames, innermost first, to be symbolicated into the function and line
/// after its `await`.
///
/// It reads the runtime's task layout (the resume function and context that follow the job
/// header, as `swift/ABI/Task.h` lays them out on 64-bit platforms) and only ever from a task
/// that is parked or ended and kept alive, never from one that runs. A layout it does not
/// recognise, or a binary without symbols, names no place: a step is then named by its task
/// alone.
enum ResumePoint {
  static func frames(ofTask address: UInt) -> [CodeFrame] {
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
    return addresses.filter { $0 != 0 }.map { CodeFrame(address: $0, isReturnAddress: false) }
  }
}
