#if canImport(Glibc) && canImport(Dispatch)
  import Glibc
  import LockSupport

  /// One thread that lives as long as the process and runs the work handed to it, one piece
  /// at a time, while the caller waits.
  ///
  /// The runtime's symbolicator keeps the ELF images it has read, with their line tables, in a
  /// cache per thread. Narration runs on a fresh thread each time, so each source line read
  /// there loaded the test binary's debug sections again; run on this thread, they are read
  /// once per process.
  final class ResidentThread: Sendable {
    /// The thread every symbolication runs on.
    static let symbolication = ResidentThread()

    private let mailbox = Locked<[@Sendable () -> Void]>([])
    private let arrived = DriverSemaphore()

    private init() {
      let context = Unmanaged.passRetained(self).toOpaque()
      var thread = pthread_t()
      let code = pthread_create(
        &thread, nil,
        { context in
          // The thread lives as long as the process, so it keeps its reference.
          let resident = Unmanaged<ResidentThread>.fromOpaque(context!).takeUnretainedValue()
          resident.serve()
        }, context)
      precondition(code == 0, "pthread_create failed with error \(code)")
      pthread_detach(thread)
    }

    /// `work`'s result, computed on this thread.
    func run<R: Sendable>(_ work: @escaping @Sendable () -> R) -> R {
      let result = Locked<R?>(nil)
      let done = DriverSemaphore()
      mailbox.withLock {
        $0.append {
          let value = work()
          result.withLock { $0 = value }
          done.signal()
        }
      }
      arrived.signal()
      while !done.wait(nanoseconds: Self.longSleep) {}
      guard let value = result.withLock({ $0 }) else {
        preconditionFailure("the resident thread signalled before it stored a result")
      }
      return value
    }

    /// An hour: the thread sleeps until work arrives, waking this rarely when none does.
    private static let longSleep = 3_600_000_000_000

    private func serve() -> Never {
      while true {
        guard arrived.wait(nanoseconds: Self.longSleep) else { continue }
        let work = mailbox.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        work?()
      }
    }
  }
#endif
