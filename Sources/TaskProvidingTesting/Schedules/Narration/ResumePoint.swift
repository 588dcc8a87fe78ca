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

  /// Whether the task has ended: `IsComplete` among the flags of its status, the first word of
  /// its private storage's `ActiveTaskStatus`, as `RemoteInspection/RuntimeInternals.h`
  /// mirrors the layout for tools that inspect a process's tasks (after the job header,
  /// `ResumeContext`, `Reserved64` and the two words of `ExclusivityAccessSet`). Read only
  /// from a task kept alive; `false` where the layout is not the one it knows.
  static func hasEnded(task address: UInt) -> Bool {
    guard MemoryLayout<UInt>.size == 8, address != 0, address % 16 == 0 else { return false }
    let flags = UnsafeRawPointer(bitPattern: address)!.load(fromByteOffset: 96, as: UInt32.self)
    return flags & 0x2000 != 0
  }
}
