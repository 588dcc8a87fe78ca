import LockSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A task executor with one thread of its own, which the suite's tests that compute for
/// seconds share.
///
/// Swift Testing runs tests on the cooperative pool, which has one thread per core: two here.
/// Two tests that compute for seconds there (ten times longer under ThreadSanitizer) leave no
/// thread for the tests beside them, whose failure bounds then pass while their tasks wait
/// for a thread. On this thread they take turns, so together they take at most one core, and
/// the system's scheduler shares it with the pool.
final class ComputeThread: TaskExecutor, @unchecked Sendable {
  /// The thread for computations, started on first use and kept for the run.
  static let shared = ComputeThread()

  /// Threads for exit tests, one per exit test running: Swift Testing waits for an exit
  /// test's child process by reading from it, blocking the thread the test runs on until the
  /// child ends. On the pool, a few exit tests at once would hold every thread of it for
  /// seconds; on one shared thread, a short exit test would wait for a long one.
  static let exitTests = ThreadLending()

  // Guarded by `mutex`; a pthread mutex so that ThreadSanitizer sees the lock.
  private var jobs: [UnownedJob] = []
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  fileprivate init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
    let unmanaged = Unmanaged.passRetained(self)
    // Darwin's `pthread_t` is a pointer and its start routine's argument is not optional;
    // glibc's is an integer and its argument is.
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let created = pthread_create(
      &thread, nil,
      { argument in
        let argument: UnsafeMutableRawPointer? = argument
        Unmanaged<ComputeThread>.fromOpaque(argument!).takeRetainedValue().runJobs()
      }, unmanaged.toOpaque())
    precondition(created == 0, "could not start a thread: \(created)")
    #if canImport(Darwin)
      if let thread { pthread_detach(thread) }
    #else
      pthread_detach(thread)
    #endif
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    pthread_mutex_lock(mutex)
    jobs.append(job)
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  private func runJobs() -> Never {
    while true {
      pthread_mutex_lock(mutex)
      while jobs.isEmpty { pthread_cond_wait(condition, mutex) }
      let job = jobs.removeFirst()
      pthread_mutex_unlock(mutex)
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// Runs each test on one of the suite's own threads (a ``ComputeThread``) instead of the
/// cooperative pool: tests that compute for seconds, or that block their thread while an exit
/// test's child runs, then never hold a pool thread the tests beside them wait for. The tests
/// of the whole run that share a thread take turns on it.
public struct ComputeThreadTrait: TestTrait, SuiteTrait, TestScoping {
  /// Where a test's thread comes from: one shared thread, or one lent for the test alone.
  enum Source: Sendable {
    case shared(ComputeThread)
    case lent(ThreadLending)
  }

  let source: Source

  /// Applied to a suite, it covers each test in it.
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    test.isSuite || testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    switch source {
    case .shared(let thread):
      try await withTaskExecutorPreference(thread) { try await function() }
    case .lent(let lending):
      let thread = lending.borrow()
      defer { lending.giveBack(thread) }
      try await withTaskExecutorPreference(thread) { try await function() }
    }
  }
}

extension Trait where Self == ComputeThreadTrait {
  /// Each test runs on the thread set aside for long computations, leaving the cooperative
  /// pool to the others.
  public static var computeThread: Self { Self(source: .shared(.shared)) }

  /// Each test runs on a thread lent to it alone, so that its exit tests' waits for their
  /// child processes hold no thread of the cooperative pool and no other test's thread.
  public static var exitTestThread: Self { Self(source: .lent(ComputeThread.exitTests)) }
}

/// Threads lent to one test at a time: an idle one if there is one, else a new one. A thread
/// given back serves the next test; none is ever ended, and there are never more than the
/// tests that ran at once.
final class ThreadLending: Sendable {
  private let idle = Locked<[ComputeThread]>([])

  /// A thread no other test is using.
  func borrow() -> ComputeThread {
    idle.withLock { $0.popLast() } ?? ComputeThread()
  }

  /// `thread` is free again: its test has ended, and with it every task that preferred it.
  func giveBack(_ thread: ComputeThread) {
    idle.withLock { $0.append(thread) }
  }
}
