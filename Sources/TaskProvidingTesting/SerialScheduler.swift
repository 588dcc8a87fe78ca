import Dispatch
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Runs `body` with every job it causes run one at a time, on the calling thread, in the
/// order `order` gives, and returns what `body` returns once it has ended.
///
/// Every task the body starts, every continuation it resumes, every hop to the main actor or
/// to the global pool becomes a job in one queue that this function drains in a loop. Two
/// things follow:
/// - **Order.** Under ``JobOrder/fifo`` jobs run in enqueue order, so the same test runs the
///   same way every time, as under `withMainSerialExecutor`. Under ``JobOrder/random(seed:)``
///   each seed gives another legal interleaving, and the same seed the same one: run a test
///   under many seeds to show it holds in every order, and replay a failing seed.
/// - **Speed.** A job on the main actor costs a thread wake-up when the runtime schedules it
///   (20–30 µs on a small Linux machine); here it runs in the same loop as the one before it
///   (about a microsecond). A test that hands work back and forth between itself and the
///   model many times gets faster by that much per hand-over.
///
/// ```swift
/// @Suite(.serialized) struct SerialTests {
///   @Test @MainActor func outOfOrder() throws {
///     try withSerialScheduler {
///       let facts = ControlledNumberFactClient(cancellation: .ignore)
///       let model = Model(client: facts.client)
///       let first = Task { await model.tap() }
///       …
///     }
///   }
/// }
/// ```
///
/// It works through the concurrency runtime's process-wide enqueue hooks, as
/// `withMainSerialExecutor` does, so while it runs, jobs of other tests running in parallel
/// pass through the same queue: they still run, on this thread. Keep the tests that use it in
/// one `.serialized` suite. Delayed jobs (`Task.sleep`) keep real time and rejoin the queue
/// when they wake; work scheduled on a dispatch queue is not a job and runs where dispatch
/// runs it.
///
/// It blocks the main actor while it runs, so nothing else on the main actor runs beside the
/// jobs it drives; code that waits for `DispatchQueue.main` inside `body` waits until the
/// timeout.
///
/// - Parameters:
///   - order: Which ready job runs next.
///   - timeout: Bounds a failure only: if `body` has not ended by then, the scheduler reports
///     an issue at the caller's line, cancels the body's task, gives it one more second to
///     end, and throws.
///   - body: The test, run as a task on the main actor.
///   - fileID: The file an issue is reported in; the caller's by default.
///   - filePath: The full path of that file.
///   - line: The line an issue is reported at.
///   - column: The column an issue is reported at.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws; ``SerialSchedulerTimeoutError`` if it did not end in time;
///   ``SerialSchedulerUnavailableError`` if the runtime does not export the hooks.
@MainActor
public func withSerialScheduler<R: Sendable>(
  order: JobOrder = .fifo,
  timeout: Duration = .seconds(30),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: @escaping @MainActor () async throws -> R
) throws -> R {
  try runSerially(
    order: order, timeout: timeout,
    at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column), body)
}

/// ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)``, reporting at `site`.
@MainActor
func runSerially<R: Sendable>(
  order: JobOrder = .fifo, timeout: Duration, at site: CallSite,
  waitsForCancelledBody: Bool = false,
  _ body: @escaping @MainActor () async throws -> R
) throws -> R {
  let queue = JobQueue.shared
  guard queue.enter() else {
    site.report(
      """
      withSerialScheduler needs the concurrency runtime's enqueue hooks \
      (swift_task_enqueueGlobal_hook, swift_task_getMainExecutor_hook), and this runtime \
      does not export them.
      """)
    throw SerialSchedulerUnavailableError()
  }
  defer { queue.exit() }
  let outcome = Outcome<R>()
  let task = Task { @MainActor in
    do { outcome.end(.success(try await body())) } catch { outcome.end(.failure(error)) }
  }
  var jobsRun = 0
  var picker = JobPicker(order)
  if queue.drain(
    until: .now + timeout, ended: outcome.hasEnded, order: &picker, jobsRun: &jobsRun),
    let result = outcome.result
  {
    return try result.get()
  }
  site.report(
    """
    withSerialScheduler: the body did not end within \(timeout) (\(jobsRun) jobs ran). It \
    may await something that never comes. Its task was cancelled.
    """)
  task.cancel()
  // A second to end once cancelled, so its jobs do not outlive the test if it can help it.
  var ended = queue.drain(
    until: .now + .seconds(1), ended: outcome.hasEnded, order: &picker, jobsRun: &jobsRun)
  if waitsForCancelledBody, !ended {
    // The body borrows a closure that must not outlive this call: keep driving it.
    site.report("The cancelled body has not ended; still waiting for it.")
    while !ended {
      ended = queue.drain(
        until: .now + .seconds(10), ended: outcome.hasEnded, order: &picker, jobsRun: &jobsRun)
    }
  }
  throw SerialSchedulerTimeoutError(timeout: timeout, jobsRun: jobsRun)
}

/// How a scheduled body ended, set by its last job.
private final class Outcome<R: Sendable>: Sendable {
  private let state = Mutex<Result<R, any Error>?>(nil)
  /// Read between every two jobs: an atomic flag, not the generic result behind a lock.
  private let ended = Atomic(false)

  func end(_ result: Result<R, any Error>) {
    state.withLock { $0 = result }
    ended.store(true, ordering: .releasing)
  }

  var result: Result<R, any Error>? { state.withLock { $0 } }
  @Sendable func hasEnded() -> Bool { ended.load(ordering: .acquiring) }
}

/// The order in which ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)``
/// runs the jobs that are ready.
public enum JobOrder: Sendable, Hashable, CustomStringConvertible {
  /// Enqueue order: the same interleaving every time.
  case fifo
  /// Main-actor jobs in enqueue order, as the main actor runs them, and each job for the
  /// global pool (a task's first step, nonisolated code, an actor's turn) at a random place
  /// among them, as a pool running beside the main actor may place it: a different
  /// interleaving for each seed, the same one for the same seed as long as every job comes
  /// from the body itself (not from a timer or another thread).
  case random(seed: UInt64)

  public var description: String {
    switch self {
    case .fifo: "fifo"
    case .random(let seed): "random(seed: \(seed))"
    }
  }
}

/// Chooses the next job to run from those ready.
struct JobPicker {
  private var generator: SplitMix64?

  init(_ order: JobOrder) {
    switch order {
    case .fifo: generator = nil
    case .random(let seed): generator = SplitMix64(seed: seed)
    }
  }

  /// The index in `entries` of the job to run next, from those at `head` and after.
  mutating func pick(from entries: [JobQueue.Entry], after head: Int) -> Int {
    guard var generator else { return head }
    defer { self.generator = generator }
    // The candidates are the oldest main-actor job and every pool job; count them, draw
    // one, then find it, so no array is built per job.
    var count = 0
    var sawMain = false
    var index = head
    while index < entries.count {
      if entries[index].original != nil || !sawMain {
        if entries[index].original == nil { sawMain = true }
        count += 1
      }
      index += 1
    }
    var chosen = Int(generator.next() % UInt64(count))
    sawMain = false
    index = head
    while true {
      if entries[index].original != nil || !sawMain {
        if entries[index].original == nil { sawMain = true }
        if chosen == 0 { return index }
        chosen -= 1
      }
      index += 1
    }
  }
}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same sequence on
/// every platform.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Thrown by ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)`` when its
/// body did not end in time.
public struct SerialSchedulerTimeoutError: Error, CustomStringConvertible {
  /// How long the body was given.
  public let timeout: Duration
  /// How many jobs ran before the scheduler gave up.
  public let jobsRun: Int

  public var description: String {
    "The scheduled body did not end within \(timeout); \(jobsRun) jobs ran."
  }
}

/// Thrown by ``withSerialScheduler(order:timeout:fileID:filePath:line:column:_:)`` when the
/// concurrency runtime does not export the hooks it works through.
public struct SerialSchedulerUnavailableError: Error, CustomStringConvertible {
  public var description: String {
    "This concurrency runtime does not export the enqueue hooks the serial scheduler needs."
  }
}

/// The queue behind the runtime hooks: jobs arrive from any thread, the scheduler's loop runs
/// them. One per process, because the hooks are.
///
/// While active it is the main actor's executor (the runtime asks a hook which executor is
/// the main one) and the global executor's enqueue hook sends every pool job here too.
final class JobQueue: SerialExecutor, Sendable {
  typealias Original = @convention(thin) (UnownedJob) -> Void
  typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
  typealias MainOriginal = @convention(thin) () -> UnownedSerialExecutor
  typealias MainHook = @convention(thin) (MainOriginal) -> UnownedSerialExecutor

  static let shared = JobQueue()

  struct Entry {
    let job: UnownedJob
    /// How the runtime would have run it: `nil` for a main-actor job.
    let original: Original?
  }

  private struct State {
    /// How many schedulers are running: a test body's job that the scheduler runs may start
    /// another one, which drives the same queue until its own body ends.
    var depth = 0
    var isActive: Bool { depth > 0 }
    /// The thread that drives the queue: the caller, which holds the main actor meanwhile.
    var driver: pthread_t?
    var entries: [Entry] = []
    var head = 0
    var isSleeping = false
  }

  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)

  /// Starts a scheduler; the outermost one turns the hooks on. `false` when this runtime
  /// does not export them: then nothing was started.
  func enter() -> Bool {
    guard let global = RuntimeHooks.global, let mainExecutor = RuntimeHooks.mainExecutor else {
      return false
    }
    let first = state.withLock { state -> Bool in
      state.depth += 1
      guard state.depth == 1 else { return false }
      state.driver = pthread_self()
      return true
    }
    guard first else { return true }
    RuntimeHooks.savedGlobal = global.pointee
    global.pointee = { job, original in JobQueue.shared.enqueue(job, original) }
    mainExecutor.pointee = { _ in JobQueue.shared.asUnownedSerialExecutor() }
    return true
  }

  /// Ends a scheduler; the outermost one turns the hooks off and hands every job still
  /// queued (tasks the test left running, other tests' work) back to the runtime.
  func exit() {
    let last = state.withLock { state -> Bool in
      state.depth -= 1
      return state.depth == 0
    }
    guard last else { return }
    RuntimeHooks.global?.pointee = RuntimeHooks.savedGlobal
    RuntimeHooks.savedGlobal = nil
    RuntimeHooks.mainExecutor?.pointee = nil
    let leftovers = state.withLock { state -> [Entry] in
      defer {
        state.entries = []
        state.head = 0
        state.driver = nil
      }
      return Array(state.entries[state.head...])
    }
    for entry in leftovers { Self.forward(entry.job, entry.original) }
  }

  private static func forward(_ job: UnownedJob, _ original: Original?) {
    if let original { original(job) } else { MainActor.shared.enqueue(job) }
  }

  /// A main-actor job, while this queue is the main actor's executor.
  func enqueue(_ job: consuming ExecutorJob) {
    enqueue(UnownedJob(job), nil)
  }

  /// Main-actor code that runs outside the queue's jobs while it is the main actor's executor
  /// (the scheduler's own caller) is isolated iff it runs on the driving thread: that thread
  /// holds the real main actor, and runs every job of this one.
  func checkIsolated() {
    let driver = state.withLock { $0.driver }
    guard let driver, pthread_equal(driver, pthread_self()) != 0 else {
      fatalError("Main-actor code ran off the thread driving withSerialScheduler.")
    }
  }

  private enum Enqueued {
    case queued(wakeDriver: Bool)
    /// The scheduler stopped between the hook's call and this one: the runtime runs it.
    case forward
  }

  private func enqueue(_ job: UnownedJob, _ original: Original?) {
    let enqueued = state.withLock { state -> Enqueued in
      guard state.isActive else { return .forward }
      state.entries.append(Entry(job: job, original: original))
      defer { state.isSleeping = false }
      return .queued(wakeDriver: state.isSleeping)
    }
    switch enqueued {
    case .forward: Self.forward(job, original)
    case .queued(let wakeDriver): if wakeDriver { wake.signal() }
    }
  }

  /// Runs queued jobs in order until `ended` holds or `deadline` passes; returns whether it
  /// holds. While it waits for a job from outside (a timer, another thread), it sleeps.
  func drain(
    until deadline: ContinuousClock.Instant, ended: () -> Bool, order: inout JobPicker,
    jobsRun: inout Int, stopAfter limit: Int = .max
  ) -> Bool {
    var ranHere = 0
    let main = asUnownedSerialExecutor()
    while true {
      enum Step {
        case run(Entry)
        case sleep
      }
      // Only a job this loop runs can end the body, so checking between jobs is enough.
      if ended() { return true }
      let step = state.withLock { state -> Step in
        guard state.head < state.entries.count else {
          state.isSleeping = true
          return .sleep
        }
        let index = order.pick(from: state.entries, after: state.head)
        let entry = state.entries[index]
        if index == state.head {
          state.head += 1
          if state.head == state.entries.count, state.head >= 64 {
            // Reset now and then, not after every job: emptying an array is not free.
            state.entries.removeAll(keepingCapacity: true)
            state.head = 0
          }
        } else {
          state.entries.remove(at: index)
        }
        return .run(entry)
      }
      switch step {
      case .run(let entry):
        // Every job runs on this executor, which is the main actor's for now, as under
        // `withMainSerialExecutor`: nonisolated code does not care, main-actor code needs it.
        entry.job.runSynchronously(on: main)
        jobsRun += 1
        ranHere += 1
        if ranHere >= limit { return true }
        continue
      case .sleep:
        break
      }
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else {
        state.withLock { $0.isSleeping = false }
        return false
      }
      let (seconds, attoseconds) = remaining.components
      let nanoseconds = min(Double(seconds) * 1e9 + Double(attoseconds) / 1e9, 3.2e16)
      _ = wake.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
    }
  }
}

/// The concurrency runtime's hooks, found by name as `withMainSerialExecutor` finds the
/// global one. The main executor's enqueue hook is not consulted by this runtime; the hook
/// that answers "which executor is the main one" is.
enum RuntimeHooks {
  nonisolated(unsafe) static let global = symbol(
    "swift_task_enqueueGlobal_hook", as: JobQueue.Hook?.self)
  nonisolated(unsafe) static let mainExecutor = symbol(
    "swift_task_getMainExecutor_hook", as: JobQueue.MainHook?.self)
  /// The global hook found when the outermost scheduler started (`withMainSerialExecutor`'s,
  /// say), put back when it ends. Written only on the main actor, at those two moments.
  nonisolated(unsafe) static var savedGlobal: JobQueue.Hook?

  private static func symbol<T>(_ name: String, as type: T.Type) -> UnsafeMutablePointer<T>? {
    dlsym(dlopen(nil, RTLD_NOW), name)?.assumingMemoryBound(to: T.self)
  }
}
