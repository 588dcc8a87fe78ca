// Repeated on purpose (docs/architecture.md): one lookup per runtime symbol.

/// The concurrency runtime's entry points the scheduler works through, found by name as
/// `withMainSerialExecutor` finds its hook: the two enqueue hooks, and the functions that
/// say which task is running and which task a job is.
///
/// All of them are exported by the runtime's shared library; a runtime that lacks one makes
/// ``RuntimeHooks/isAvailable`` false, and the scheduler reports that instead of running.
enum RuntimeHooks {
  typealias GlobalOriginal = @convention(thin) (UnownedJob) -> Void
  typealias GlobalHook = @convention(thin) (UnownedJob, GlobalOriginal) -> Void
  typealias MainOriginal = @convention(thin) () -> UnownedSerialExecutor
  typealias MainHook = @convention(thin) (MainOriginal) -> UnownedSerialExecutor
  private typealias GetCurrent = @convention(c) () -> UnsafeRawPointer?
  private typealias JobID = @convention(c) (UnsafeRawPointer) -> UInt64
  /// `swift_task_getJobFlags` returns a `size_t`: 32 bits on arm64_32 (watchOS devices).
  private typealias JobFlags = @convention(c) (UnsafeRawPointer) -> UInt
  private typealias GetMainExecutor = @convention(thin) () -> UnownedSerialExecutor
  private typealias Enqueue = @convention(thin) (UnownedJob, UnownedSerialExecutor) -> Void
  private typealias EnqueueGlobal = @convention(thin) (UnownedJob) -> Void

  /// Where the runtime looks for a replacement of its global enqueue.
  nonisolated(unsafe) static let global = symbol("swift_task_enqueueGlobal_hook")?
    .assumingMemoryBound(to: GlobalHook?.self)
  /// Where the runtime asks which executor is the main actor's.
  nonisolated(unsafe) static let mainExecutor = symbol("swift_task_getMainExecutor_hook")?
    .assumingMemoryBound(to: MainHook?.self)
  private static let getCurrent = symbol("swift_task_getCurrent")
    .map { unsafeBitCast($0, to: GetCurrent.self) }
  private static let getJobTaskID = symbol("swift_task_getJobTaskId")
    .map { unsafeBitCast($0, to: JobID.self) }
  private static let getJobFlags = symbol("swift_task_getJobFlags")
    .map { unsafeBitCast($0, to: JobFlags.self) }

  private static let getMainExecutor = symbol("swift_task_getMainExecutor")
    .map { unsafeBitCast($0, to: GetMainExecutor.self) }
  private static let enqueueOnExecutor = symbol("swift_task_enqueue")
    .map { unsafeBitCast($0, to: Enqueue.self) }
  private static let enqueueOnPool = symbol("swift_task_enqueueGlobal")
    .map { unsafeBitCast($0, to: EnqueueGlobal.self) }

  /// Whether every entry point was found.
  static let isAvailable = missing.isEmpty

  /// The entry points this runtime does not export, by name.
  static let missing: [String] = [
    ("swift_task_enqueueGlobal_hook", global != nil),
    ("swift_task_getMainExecutor_hook", mainExecutor != nil),
    ("swift_task_getCurrent", getCurrent != nil),
    ("swift_task_getJobTaskId", getJobTaskID != nil),
    ("swift_task_getJobFlags", getJobFlags != nil),
    ("swift_task_getMainExecutor", getMainExecutor != nil),
    ("swift_task_enqueue", enqueueOnExecutor != nil),
    ("swift_task_enqueueGlobal", enqueueOnPool != nil),
  ].filter { !$0.1 }.map(\.0)

  /// Why a scope cannot open here, naming what is missing and the runtime that has it.
  static var unavailability: String {
    let names = missing.isEmpty ? "the enqueue hooks" : missing.joined(separator: ", ")
    return "this concurrency runtime does not export \(names). "
      + "Swift 6.1's runtime and later do: macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4 and "
      + "visionOS 2.4 or later, or the toolchain's own runtime on Linux"
  }

  /// The runtime's own main executor, read before any hook of ours answers for it: the
  /// router reads it before it installs its hooks.
  static let realMainExecutor: UnownedSerialExecutor? = getMainExecutor?()

  /// Puts a job on an executor, as the runtime does when a task hops to it.
  static func enqueue(_ job: UnownedJob, on executor: UnownedSerialExecutor) {
    enqueueOnExecutor?(job, executor)
  }

  /// Puts a job on the global pool, through whatever hook is installed.
  static func enqueueGlobal(_ job: UnownedJob) {
    enqueueOnPool?(job)
  }

  /// The task running on this thread, if any.
  @inline(__always)
  static func currentTask() -> UnsafeRawPointer? { getCurrent?() }

  /// A job's task identity: its pointer and the task's 64-bit id, which the runtime never
  /// reuses, so a freed task's address taken by a new one is not mistaken for it. `nil` for a
  /// job that is not a task (an actor's turn, a continuation job).
  @inline(__always)
  static func taskIdentity(_ job: UnsafeRawPointer) -> TaskIdentity? {
    guard let getJobTaskID, jobKind(job) == 0 else { return nil }
    return TaskIdentity(address: UInt(bitPattern: job), id: getJobTaskID(job))
  }

  /// The runtime's kind of a job: 0 for a task, other values for its internal jobs.
  @inline(__always)
  static func jobKind(_ job: UnsafeRawPointer) -> UInt64 {
    UInt64(getJobFlags?(job) ?? 0) & 0xFF
  }

  /// The actor whose turn a job is, by its address; `nil` for any other job. The runtime
  /// makes a turn either inside the actor (`JobKind::DefaultActorInline`, 192), whose address
  /// then stands for the actor, or as a job of its own that points at the actor right after
  /// the job header (`JobKind::DefaultActorSeparate`, 193; `swift/ABI/Task.h`).
  static func actor(ofTurn job: UnsafeRawPointer) -> UInt? {
    switch jobKind(job) {
    case 192: return UInt(bitPattern: job)
    case 193 where MemoryLayout<UInt>.size == 8:
      let actor = job.load(fromByteOffset: 64, as: UInt.self)
      return actor == 0 ? nil : actor
    default: return nil
    }
  }

  /// The name of the type of the actor whose turn `job` is, when the job points at it
  /// (`JobKind::DefaultActorSeparate`); read only while the turn is about to run, when the
  /// actor is alive.
  static func actorTypeName(ofTurn job: UnownedJob) -> String? {
    let pointer = UnsafeRawPointer(bitPattern: unsafeBitCast(job, to: UInt.self))!
    guard jobKind(pointer) == 193, let actor = actor(ofTurn: pointer),
      let object = UnsafeRawPointer(bitPattern: actor)
    else { return nil }
    let metadata = object.load(as: UnsafeRawPointer.self)
    return _typeName(unsafeBitCast(metadata, to: Any.Type.self), qualified: false)
  }

  /// Whether a task job is an `async let` child, which lives in its parent's memory and is
  /// not reference-counted on its own (`Task_IsAsyncLetTask` among the job's flags).
  static func isAsyncLetTask(_ job: UnsafeRawPointer) -> Bool {
    (UInt64(getJobFlags?(job) ?? 0) >> 28) & 1 == 1
  }

  /// Whether a task job's task was created with a task executor preference
  /// (`Task_HasInitialTaskExecutorPreference` among the job's flags).
  @inline(__always)
  static func hasTaskExecutorPreference(_ job: UnownedJob) -> Bool {
    let pointer = unsafeBitCast(job, to: UnsafeRawPointer.self)
    return (UInt64(getJobFlags?(pointer) ?? 0) >> 29) & 1 == 1
  }

  /// The name the task running on this thread was given (`Task(name:)`), if any.
  static func currentTaskName() -> String? {
    guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) else {
      return nil
    }
    return Task<Never, Never>.name
  }

  private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
    loadedSymbol(name)
  }
}

/// A task as the runtime knows it: its address, and its id to tell it from a later task at
/// the same address.
struct TaskIdentity: Hashable, Sendable {
  let address: UInt
  let id: UInt64
}
