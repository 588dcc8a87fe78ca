/// The task running on the calling thread, as the explorer names tasks: by the address the
/// runtime gives it.
enum RunningTask {
  /// Its address, or `nil` outside a task.
  static var address: UInt? {
    RuntimeHooks.currentTask().map { UInt(bitPattern: $0) }
  }
}
