import TaskProviding

/// Tells a schedule as a person reads it: each choice by its label, and each job by its task
/// and where that task resumes.
///
/// Only the schedule that is reported is narrated, once it has been reduced: reading tasks'
/// resume points and symbolicating them costs far more than running the schedule. While it
/// narrates it keeps every task it sees alive (one retain each, given back at the end), so
/// reading where a parked task will resume never reads a freed one.
final class ScheduleNarrator: Sendable {
  private struct JobStep {
    let sequence: Int
    let task: TaskIdentity?
    /// Whether more than one job was ready, and which was first in enqueue order.
    let decided: Bool
    let oldest: (sequence: Int, task: TaskIdentity?)
    /// Where each task known to be parked was to resume as the job began.
    let parked: [TaskIdentity: [UInt]]
  }

  private enum Step {
    case choice(String)
    case job(JobStep)
  }

  private struct State {
    var steps: [Step] = []
    var numbers: [TaskIdentity: Int] = [:]
    var names: [TaskIdentity: String] = [:]
    var root: TaskIdentity?
    /// The job running on the driving thread, and the tasks seen running inside it.
    var running: (sequence: Int, task: TaskIdentity?)?
    var ranInside: [Int: [TaskIdentity]] = [:]
    /// Where each task will resume, read whenever it was last seen parked.
    var parked: [TaskIdentity: [UInt]] = [:]
    var retained: [TaskIdentity] = []
    /// Labels the setup gave, asked while each task was pending.
    var labels: [TaskIdentity: String] = [:]
  }

  private let state = Locked(State())
  private let taskLabel: @MainActor (UInt) -> String?

  init(taskLabel: @escaping @MainActor (UInt) -> String?) {
    self.taskLabel = taskLabel
  }

  /// Learns from each job the scope is given: which task it is, which task was running and
  /// what that task is called.
  @Sendable func observe(_ event: JobEvent) {
    state.withLock { state in
      for task in [event.task, event.enqueuedBy].compactMap({ $0 }) {
        keep(task, in: &state)
      }
      if let by = event.enqueuedBy, let name = event.enqueuerName, state.names[by] == nil {
        state.names[by] = name
      }
      // A task that enqueues during a job, itself or another, ran in it. A task parked to
      // enter an actor, with none running, is the task of the job that runs.
      if let running = state.running,
        let ran = event.enqueuedBy ?? event.task ?? running.task,
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

  func choice(_ label: String) {
    state.withLock { $0.steps.append(.choice(label)) }
  }

  /// A job about to run; `decided` when other jobs were ready too, `oldest` first among them.
  @MainActor
  func job(_ job: ReadyJob, oldest: ReadyJob, decided: Bool) {
    let resume = job.task.map { ResumePoint.addresses(ofTask: $0.address) }
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
            sequence: job.sequence, task: job.task, decided: decided,
            oldest: (oldest.sequence, oldest.task), parked: state.parked)))
      state.running = (job.sequence, job.task)
    }
  }

  /// The job has run: every task that ran in it is parked again (or has ended) and will
  /// resume where its resume function and context now say.
  func didRun() {
    state.withLock { state in
      guard let running = state.running else { return }
      state.running = nil
      let ran = (state.ranInside[running.sequence] ?? []) + [running.task].compactMap { $0 }
      for task in ran where state.retained.contains(task) {
        state.parked[task] = ResumePoint.addresses(ofTask: task.address)
      }
    }
  }

  /// Gives back the retains taken while narrating; call once the scope has closed.
  func release() {
    let retained = state.withLock { state in
      defer { state.retained = [] }
      return state.retained
    }
    for task in retained {
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: task.address)!).release()
    }
  }

  /// The steps, told. The scenario's own jobs are left out unless the order among ready jobs
  /// was chosen there: they are the test's code, which the reader has in front of them.
  @MainActor
  func steps() -> [String] {
    let state = state.withLock { $0 }
    // Tasks spawned through the scenario's provider by its label ("task #2 'tap'"), others
    // by their name, else by the order they were first seen in.
    func name(_ task: TaskIdentity?) -> String {
      guard let task else { return "an actor's turn" }
      if task == state.root { return "the scenario" }
      if let label = state.labels[task] { return label }
      if let name = state.names[task] { return "task '\(name)'" }
      return "unnamed task" + (state.numbers[task].map { " #\($0)" } ?? "")
    }
    func place(_ addresses: [UInt]?) -> String? {
      guard let addresses, let point = ResumePoint.first(in: addresses) else { return nil }
      return " in \(point.function)" + (point.place.map { " at \($0)" } ?? "")
    }
    var started = Set<TaskIdentity>()
    var told: [String] = []
    for step in state.steps {
      switch step {
      case .choice(let label):
        told.append(label)
      case .job(let job):
        let departs = job.decided && job.sequence != job.oldest.sequence
        if job.task == state.root, !departs { continue }
        let mark =
          departs ? " (out of enqueue order: \(name(job.oldest.task)) was ready first)" : ""
        if let task = job.task {
          // A task's first job is its start, told by the choice that started it when it was
          // held by the provider; a job that resumes only the toolkit's plumbing (a held
          // task's gate, a controlled call) is left out unless its order was chosen.
          if started.insert(task).inserted {
            if state.labels[task] == nil { told.append("\(name(task)) starts" + mark) }
          } else if let resumed = place(job.parked[task]) {
            told.append("\(name(task)) resumes" + resumed + mark)
          } else if departs {
            told.append("\(name(task)) resumes" + mark)
          }
          continue
        }
        // An actor's turn: each task it ran, in turn, where it was parked.
        let ran = (state.ranInside[job.sequence] ?? []).filter { $0 != state.root }
        if ran.isEmpty {
          if departs || state.ranInside[job.sequence] == nil {
            told.append("an actor runs its next task" + mark)
          }
          continue
        }
        for (position, task) in ran.enumerated() {
          let verb = started.insert(task).inserted ? "starts" : "resumes"
          told.append(
            "\(name(task)) \(verb)" + (place(job.parked[task]) ?? "") + " on its actor"
              + (position == 0 ? mark : ""))
        }
      }
    }
    // The same line twice in a row says nothing new: a task that resumes where it was.
    return told.enumerated().filter { $0.offset == 0 || told[$0.offset - 1] != $0.element }
      .map(\.element)
  }
}
