import LockSupport
import TaskProviding

/// Records a schedule as a person will read it: each choice by its label, and each job by its
/// task, where that task resumes, and which tasks ran in it; ``Narration`` writes the steps.
///
/// Only the schedule that is reported is narrated, once it has been shrunk: reading tasks'
/// resume points and symbolicating them costs far more than running the schedule. While it
/// narrates it keeps every task it sees alive (one retain each, given back at the end), so
/// reading where a parked task will resume never reads a freed one.
final class ScheduleNarrator: Sendable {
  struct JobStep {
    let sequence: Int
    let task: TaskIdentity?
    /// For an actor's turn, the actor's address and the name of its type.
    let actor: UInt?
    let actorName: String?
    /// Whether more than one job was ready, and which was first in enqueue order.
    let decided: Bool
    let oldest: (sequence: Int, task: TaskIdentity?, actorName: String?)
    /// Where each task known to be parked was to resume as the job began.
    let parked: [TaskIdentity: [CodeFrame]]
    /// The tasks that ran in it, in the order they came to it, and where each went on.
    var ran: [TaskIdentity] = []
    var after: [TaskIdentity: [CodeFrame]] = [:]
  }

  enum Step {
    case choice(String, aheadOf: Default?)
    case job(JobStep)
  }

  /// What a step that departs from the default order was taken ahead of: a job (its task,
  /// or the actor whose turn it is), or an earlier option.
  enum Default {
    case job(TaskIdentity?, actorName: String?)
    case choice(String)
  }

  struct State {
    var steps: [Step] = []
    var numbers: [TaskIdentity: Int] = [:]
    var names: [TaskIdentity: String] = [:]
    var root: TaskIdentity?
    /// The job running on the driving thread, and the tasks seen running inside it.
    var running: (sequence: Int, task: TaskIdentity?)?
    var ranInside: [Int: [TaskIdentity]] = [:]
    /// Where each task will resume, read whenever it was last seen parked.
    var parked: [TaskIdentity: [CodeFrame]] = [:]
    var retained: [TaskIdentity] = []
    /// Every task the scope was given a job of: the others a hook sees running are not the
    /// scenario's (the test's own task, whose frame the driving thread runs in).
    var owned: Set<TaskIdentity> = []
    /// Where each task was spawned, for one with no name.
    var spawnSites: [TaskIdentity: [CodeFrame]] = [:]
    /// Labels the setup gave, asked while each task was pending.
    var labels: [TaskIdentity: String] = [:]
    /// The job in which each task last ran, by its place among the steps.
    var lastRan: [TaskIdentity: Int] = [:]
    /// The runtime's tasks that end sleeps: their jobs are narrated by the choice that ended
    /// the sleep.
    var sleepEnds: Set<TaskIdentity> = []
    /// Set where the schedule stopped unfinished: each task that had not ended, in the order
    /// first seen, where it was to resume, and whether it was ready to run again.
    var unfinished: [(task: TaskIdentity, frames: [CodeFrame]?, isReady: Bool)]?
    /// Steps past ``ScheduleNarrator/mostNarratedSteps``, counted and not kept.
    var unnarrated = 0
    /// Whether it stopped because it would not settle, rather than because nothing could run.
    var stoppedLooping = false
  }

  /// The most steps a story keeps: a schedule that loops runs up to the explorer's limit of
  /// jobs, whose every step no one reads, and keeping each would cost memory and time.
  /// The explorer's own tests lower it, with ``ScheduleLimits/maximumJobs``.
  @TaskLocal static var mostNarratedSteps = 10_000

  private let state = Locked(State())
  /// Read once: a task-local, which every step would otherwise look up.
  private let mostNarrated = ScheduleNarrator.mostNarratedSteps
  private let taskLabel: @MainActor (UInt) -> String?

  init(taskLabel: @escaping @MainActor (UInt) -> String?) {
    self.taskLabel = taskLabel
    TaskCreation.startNotingNames()
  }

  /// Learns from each job the scope is given: which task it is, which task was running and
  /// what that task is called.
  @Sendable func observe(_ event: JobEvent) {
    // A task first seen while another of the scenario's runs is being spawned by it: the
    // stack says where.
    let isNew = event.task.map { task in state.withLock { !$0.owned.contains(task) } } ?? false
    let site = isNew && event.enqueuedBy != nil ? SpawnSite.capture() : nil
    state.withLock { state in
      if let task = event.task, event.endsSleep {
        state.sleepEnds.insert(task)
        return
      }
      if let task = event.task {
        state.owned.insert(task)
        keep(task, in: &state)
        if let site, state.spawnSites[task] == nil { state.spawnSites[task] = site }
        // Enqueued, so not running: where it will resume can be read now.
        if state.retained.contains(task) {
          state.parked[task] = ResumePoint.frames(ofTask: task.address)
        }
      }
      // The task running when the job came, if it is the scenario's.
      let by = event.enqueuedBy.flatMap { state.owned.contains($0) ? $0 : nil }
      if let by, let name = event.enqueuerName, state.names[by] == nil {
        state.names[by] = name
      }
      // A task that enqueues during a job, itself or another, ran in it.
      if let running = state.running, let ran = by ?? event.task,
        state.ranInside[running.sequence]?.contains(ran) != true
      {
        state.ranInside[running.sequence, default: []].append(ran)
      }
    }
  }

  /// Numbers a task when first seen, and keeps it alive until the narration ends.
  private func keep(_ task: TaskIdentity, in state: inout State) {
    guard state.numbers[task] == nil else { return }
    if state.root == nil { state.root = task }
    state.numbers[task] = state.numbers.count
    let pointer = UnsafeRawPointer(bitPattern: task.address)!
    guard !RuntimeHooks.isAsyncLetTask(pointer) else { return }
    _ = Unmanaged<AnyObject>.fromOpaque(pointer).retain()
    state.retained.append(task)
  }

  /// A choice taken; `aheadOf` what the default order would have taken instead.
  func choice(_ label: String, aheadOf first: Default?) {
    state.withLock { state in
      guard state.steps.count < mostNarrated else {
        state.unnarrated += 1
        return
      }
      state.steps.append(.choice(label, aheadOf: first))
    }
  }

  /// A job about to run; `decided` when other jobs were ready too, `oldest` first among them.
  @MainActor
  func job(_ job: ReadyJob, oldest: ReadyJob, decided: Bool) {
    let isNarrated = state.withLock { state in
      guard state.steps.count < mostNarrated else {
        state.unnarrated += 1
        // Not narrated, so ``didRun()`` has no step to complete.
        state.running = nil
        return false
      }
      return true
    }
    guard isNarrated else { return }
    let resume = job.task.map { ResumePoint.frames(ofTask: $0.address) }
    // Asked now: the setup knows a task only while it is pending.
    let label = job.task.flatMap { task in
      state.withLock { $0.labels[task] } == nil ? taskLabel(task.address) : nil
    }
    state.withLock { state in
      if let task = job.task, let label { state.labels[task] = label }
      if let task = job.task, let resume { state.parked[task] = resume }
      state.steps.append(
        .job(
          JobStep(
            sequence: job.sequence, task: job.task, actor: job.actor,
            actorName: job.task == nil ? RuntimeHooks.actorTypeName(ofTurn: job.job) : nil,
            decided: decided,
            oldest: (
              oldest.sequence, oldest.task,
              oldest.task == nil ? RuntimeHooks.actorTypeName(ofTurn: oldest.job) : nil
            ),
            parked: state.parked)))
      state.running = (job.sequence, job.task)
    }
  }

  /// The job has run: every task that ran in it is parked again (or has ended) and will
  /// resume where its resume function and context now say.
  ///
  /// An actor's turn runs tasks the hooks may never see: a task that hops from actor to
  /// actor enqueues nothing while it runs. A task whose resume point moved during the turn
  /// ran in it.
  func didRun() {
    state.withLock { state in
      guard let running = state.running,
        let index = state.steps.indices.last, case .job(var step) = state.steps[index]
      else { return }
      state.running = nil
      var ran = (state.ranInside[running.sequence] ?? []) + [running.task].compactMap { $0 }
      if running.task == nil {
        for task in state.retained where !ran.contains(task) {
          if let before = step.parked[task], ResumePoint.frames(ofTask: task.address) != before {
            ran.append(task)
          }
        }
        // An actor runs the tasks waiting on it in the order they came.
        ran.sort {
          (state.lastRan[$0] ?? -1, state.numbers[$0] ?? 0) < (
            state.lastRan[$1] ?? -1, state.numbers[$1] ?? 0
          )
        }
      }
      for task in ran {
        state.lastRan[task] = index
        guard state.retained.contains(task) else { continue }
        let frames = ResumePoint.frames(ofTask: task.address)
        state.parked[task] = frames
        step.after[task] = frames
      }
      step.ran = ran
      state.steps[index] = .job(step)
    }
  }

  /// The schedule stops here with work unfinished: nothing can run, or, if `looping`, it would
  /// not settle. Its story ends by naming where each task that has not ended waits, and which
  /// of them, among `ready`, were ready to run again. Read now, while every task is kept alive.
  func stopped(looping: Bool, ready: [TaskIdentity]) {
    state.withLock { state in
      state.stoppedLooping = looping
      state.unfinished = state.numbers.sorted { $0.value < $1.value }.compactMap { task, _ in
        guard state.retained.contains(task), !state.sleepEnds.contains(task),
          !ResumePoint.hasEnded(task: task.address)
        else { return nil }
        // Read again: steps past the most narrated updated no task's place.
        return (task, ResumePoint.frames(ofTask: task.address), ready.contains(task))
      }
    }
  }

  /// Gives back the retains taken while narrating; call once the scope has closed.
  func release() {
    let retained = state.withLock { state in
      defer { state.retained = [] }
      return state.retained
    }
    TaskCreation.stopNotingNames(of: Array(state.withLock { $0.owned }).map(\.address))
    for task in retained {
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: task.address)!).release()
    }
  }

  /// The steps, narrated: each choice, and each job by the task it ran and where that task went
  /// on. When a schedule departs from the default order, or a task enters an actor while
  /// another is suspended inside it, runs of steps around those that only repeat the default
  /// order are narrated as one line, so the race reads in a few.
  @MainActor
  func steps() -> [String] { narration().narrated() }

  /// Every step, narrated one line each, none folded.
  @MainActor
  func everyStep() -> [String] { narration().narrated(folded: false) }

  /// The steps as seen so far, to be narrated later on any thread: reading each frame's line is
  /// slow, and needs no actor.
  @MainActor
  func narration() -> Narration {
    var state = state.withLock { $0 }
    // Noted as each was created, which is after its first job was enqueued.
    for task in state.owned where state.names[task] == nil {
      state.names[task] = TaskCreation.name(ofTask: task.address)
    }
    return Narration(state: state)
  }
}
