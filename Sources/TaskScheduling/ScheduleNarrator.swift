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
    let parked: [TaskIdentity: [CodeFrame]]
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
    var parked: [TaskIdentity: [CodeFrame]] = [:]
    var retained: [TaskIdentity] = []
    /// Every task the scope was given a job of: the others a hook sees running are not the
    /// scenario's (the test's own task, whose frame the driving thread runs in).
    var owned: Set<TaskIdentity> = []
    /// Where each task was spawned, for one with no name.
    var spawnSites: [TaskIdentity: [CodeFrame]] = [:]
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
    // A task first seen while another of the scenario's runs is being spawned by it: the
    // stack says where.
    let isNew = event.task.map { task in state.withLock { !$0.owned.contains(task) } } ?? false
    let site = isNew && event.enqueuedBy != nil ? SpawnSite.capture() : nil
    state.withLock { state in
      if let task = event.task {
        state.owned.insert(task)
        keep(task, in: &state)
        if let site, state.spawnSites[task] == nil { state.spawnSites[task] = site }
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

  func choice(_ label: String) {
    state.withLock { $0.steps.append(.choice(label)) }
  }

  /// A job about to run; `decided` when other jobs were ready too, `oldest` first among them.
  @MainActor
  func job(_ job: ReadyJob, oldest: ReadyJob, decided: Bool) {
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
        state.parked[task] = ResumePoint.frames(ofTask: task.address)
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
    // Where each task was spawned, and which of the tasks spawned there it was.
    var sites: [TaskIdentity: String] = [:]
    var spawnedAt: [String: [TaskIdentity]] = [:]
    // Every address this narration names, symbolicated at once.
    var everyFrame = Array(state.spawnSites.values.joined())
    for case .job(let job) in state.steps { everyFrame += job.parked.values.joined() }
    Symbolicator.shared.prepare(everyFrame)
    for (task, _) in state.numbers.sorted(by: { $0.value < $1.value }) {
      guard let frames = state.spawnSites[task],
        let place = Symbolicator.shared.firstProgramSymbol(in: frames)?.place
      else { continue }
      sites[task] = place
      spawnedAt[place, default: []].append(task)
    }
    // Tasks spawned through the scenario's provider by its label ("task #2 'tap'"), others
    // by their name, else by where they were spawned ("the second task spawned at
    // Search.swift:35"), else by the order they were first seen in.
    func name(_ task: TaskIdentity?) -> String {
      guard let task else { return "an actor's turn" }
      if task == state.root { return "the scenario" }
      if let label = state.labels[task] { return label }
      if let name = state.names[task] { return "task '\(name)'" }
      if let place = sites[task], let siblings = spawnedAt[place],
        let position = siblings.firstIndex(of: task)
      {
        let which = siblings.count == 1 ? "the task" : "the \(Self.ordinal(position + 1)) task"
        return "\(which) spawned at \(place)"
      }
      return "unnamed task" + (state.numbers[task].map { " #\($0)" } ?? "")
    }
    func place(_ frames: [CodeFrame]?) -> String? {
      guard let frames, let point = Symbolicator.shared.firstProgramSymbol(in: frames) else {
        return nil
      }
      return " in \(point.function)" + (point.place.map { " at \($0)" } ?? "")
    }
    var started = Set<TaskIdentity>()
    var told: [String] = []
    // Jobs of one task in a row, with nothing between them, are one stretch of that task:
    // told as one step, from where it resumed to where it went on. Choices are kept as they
    // are: two actions of the same name are two steps.
    var stretch: (task: TaskIdentity, line: String, last: String?)?
    func endStretch() {
      guard let current = stretch else { return }
      if let last = current.last, !current.line.hasSuffix(last) {
        told.append(current.line + ", then" + last)
      } else {
        told.append(current.line)
      }
      stretch = nil
    }
    func tell(job line: String, of task: TaskIdentity? = nil, at resumed: String? = nil) {
      if let task, let current = stretch, current.task == task, !line.contains(" (ahead of ") {
        stretch?.last = resumed
        return
      }
      endStretch()
      if let task {
        stretch = (task, line, resumed)
      } else {
        told.append(line)
      }
    }
    for step in state.steps {
      switch step {
      case .choice(let label):
        endStretch()
        told.append(label)
      case .job(let job):
        let departs = job.decided && job.sequence != job.oldest.sequence
        if job.task == state.root, !departs { continue }
        let mark =
          departs ? " (ahead of \(name(job.oldest.task)))" : ""
        if let task = job.task {
          // A task's first job is its start, told by the choice that started it when it was
          // held by the provider; a job that resumes only the toolkit's plumbing (a held
          // task's gate, a controlled call) is left out unless its order was chosen.
          if started.insert(task).inserted {
            if state.labels[task] == nil { tell(job: "\(name(task)) starts" + mark) }
          } else if let resumed = place(job.parked[task]) {
            tell(job: "\(name(task)) resumes" + resumed + mark, of: task, at: resumed)
          } else if departs {
            tell(job: "\(name(task)) resumes" + mark)
          }
          continue
        }
        // An actor's turn: each task it ran, in turn, where it was parked.
        let ran = (state.ranInside[job.sequence] ?? []).filter { $0 != state.root }
        if ran.isEmpty {
          if departs || state.ranInside[job.sequence] == nil {
            tell(job: "an actor runs its next task" + mark)
          }
          continue
        }
        for (position, task) in ran.enumerated() {
          let verb = started.insert(task).inserted ? "starts" : "resumes"
          tell(
            job:
              "\(name(task)) \(verb)" + (place(job.parked[task]) ?? "") + " on an actor"
              + (position == 0 ? mark : ""))
        }
      }
    }
    endStretch()
    return told
  }

  private static func ordinal(_ number: Int) -> String {
    let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
    return number <= words.count ? words[number - 1] : "\(number)th"
  }
}
