/// What a thread that drives scopes is doing right now, kept in that thread's own storage:
/// which scope's job it runs, or which scope's work it starts. Only the thread itself reads
/// or changes it, so it needs no lock, and a job enqueued on any other thread pays nothing
/// for it.
final class DriverContext {
  /// One entry of a stack: a queue, and for a running job its lane.
  private final class Frame {
    let queue: JobScope
    /// The job's lane; an adopting frame's is never read.
    let lane: JobLane
    let below: Frame?

    init(_ queue: JobScope, lane: JobLane, below: Frame?) {
      self.queue = queue
      self.lane = lane
      self.below = below
    }
  }

  // Only the thread itself touches these, so the run-time exclusivity check Swift makes on
  // an access to a class's stored property would guard nothing.
  /// How many scopes this thread has open.
  @exclusivity(unchecked) var scopes = 0
  // Linked frames rather than arrays, and the answers kept as they change: every job in the
  // process reads `owner`, which is then one load.
  /// The jobs it is running, innermost on top, with each job's queue and lane.
  @exclusivity(unchecked) private var running: Frame?
  /// The queues it is starting work for, outside any job (a body, an action).
  @exclusivity(unchecked) private var adopting: Frame?

  /// The queue a job enqueued on this thread right now belongs to, if any.
  @exclusivity(unchecked) private(set) var owner: JobScope?

  /// Whether main-actor code may run here now: not inside one of its pool jobs.
  @exclusivity(unchecked) private(set) var isOnMainActor = true

  /// Whether the next main-actor job enqueued on this thread is to be handed back to it
  /// rather than routed (``MainActorStep``).
  @exclusivity(unchecked) var catchesMainActorJob = false
  /// The job handed back.
  @exclusivity(unchecked) var caughtMainActorJob: UnownedJob?

  /// It starts running one of `queue`'s jobs, from `lane`.
  func beginJob(of queue: JobScope, lane: JobLane) {
    running = Frame(queue, lane: lane, below: running)
    settle()
  }

  /// The job it began last has returned.
  func endJob() {
    running = running?.below
    settle()
  }

  /// It starts work for `queue` outside any job.
  func beginAdopting(_ queue: JobScope) {
    adopting = Frame(queue, lane: .mainActor, below: adopting)
    settle()
  }

  /// The work it began last for a queue has been started.
  func endAdopting() {
    adopting = adopting?.below
    settle()
  }

  private func settle() {
    if let adopting {
      owner = adopting.queue
    } else if let running {
      owner = running.queue
    } else {
      owner = nil
    }
    if let running, case .pool = running.lane {
      isOnMainActor = false
    } else {
      isOnMainActor = true
    }
  }

  private static let slot = ThreadLocalSlot()

  /// The calling thread's context, if it drives a scope.
  static var current: DriverContext? {
    guard let raw = slot.value else { return nil }
    return Unmanaged<DriverContext>.fromOpaque(raw).takeUnretainedValue()
  }

  /// The calling thread's context, made if it has none: it starts driving a scope.
  static func enter() -> DriverContext {
    let context =
      current
      ?? {
        let context = DriverContext()
        slot.value = Unmanaged.passRetained(context).toOpaque()
        return context
      }()
    context.scopes += 1
    return context
  }

  /// The calling thread closes a scope; with its last one, it stops being a driver.
  static func leave() {
    guard let raw = slot.value else { return }
    let context = Unmanaged<DriverContext>.fromOpaque(raw)
    let value = context.takeUnretainedValue()
    value.scopes -= 1
    guard value.scopes <= 0 else { return }
    slot.value = nil
    context.release()
  }
}
