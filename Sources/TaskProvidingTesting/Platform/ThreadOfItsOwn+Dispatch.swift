#if canImport(Dispatch)
  import Dispatch

  /// Runs long or blocking work (waiting for a child process, narrating a failure's steps) where
  /// it holds neither the main actor nor a thread of the concurrency runtime's pool, and
  /// resumes the caller when it is done.
  enum ThreadOfItsOwn {
    /// `work`'s result, computed on a serial queue of its own: such a queue takes a thread
    /// that the runtime's pool does not count, so work that blocks for seconds starves no
    /// other test of the pool's few threads.
    static func run<R: Sendable>(_ work: @escaping @Sendable () -> R) async -> R {
      await withCheckedContinuation { continuation in
        DispatchQueue(label: "TaskProvidingTesting.ThreadOfItsOwn").async {
          continuation.resume(returning: work())
        }
      }
    }
  }
#endif
