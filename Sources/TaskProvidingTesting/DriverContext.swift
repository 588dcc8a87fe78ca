#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a thread that drives scopes is doing right now, kept in that thread's own storage:
/// which scope's job it runs, or which scope's work it starts. Only the thread itself reads
/// or changes it, so it needs no lock, and a job enqueued on any other thread pays nothing
/// for it.
final class DriverContext {
  /// How many scopes this thread has open.
  var scopes = 0
  /// The queues whose jobs it is running, innermost last, with each job's lane.
  var running: [(queue: JobRouter.Queue, lane: JobLane)] = []
  /// The queues it is starting work for, outside any job (a body, an action).
  var adopting: [JobRouter.Queue] = []

  /// The queue a job enqueued on this thread right now belongs to, if any.
  var owner: JobRouter.Queue? { adopting.last ?? running.last?.queue }

  /// Whether main-actor code may run here now: not inside one of its pool jobs.
  var isOnMainActor: Bool { running.last?.lane != .pool }

  private nonisolated(unsafe) static var key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The calling thread's context, if it drives a scope.
  static var current: DriverContext? {
    pthread_getspecific(key).map { Unmanaged<DriverContext>.fromOpaque($0).takeUnretainedValue() }
  }

  /// The calling thread's context, made if it has none: it starts driving a scope.
  static func enter() -> DriverContext {
    let context =
      current
      ?? {
        let context = DriverContext()
        pthread_setspecific(key, Unmanaged.passRetained(context).toOpaque())
        return context
      }()
    context.scopes += 1
    return context
  }

  /// The calling thread closes a scope; with its last one, it stops being a driver.
  static func leave() {
    guard let raw = pthread_getspecific(key) else { return }
    let context = Unmanaged<DriverContext>.fromOpaque(raw)
    let value = context.takeUnretainedValue()
    value.scopes -= 1
    guard value.scopes <= 0 else { return }
    pthread_setspecific(key, nil)
    context.release()
  }
}
