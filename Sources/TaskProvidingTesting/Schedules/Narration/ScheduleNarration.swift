/// Writes the steps a ``ScheduleNarrator`` recorded, as a person reads them: each choice, each
/// job by its task and where that task went on, a task entering an actor while another is
/// suspended inside it; runs of steps away from the race, and the turns of a loop, folded.
extension ScheduleNarrator {
  /// A schedule's steps as its narrator saw them, not yet narrated.
  struct Narration: Sendable {
    let state: State

    /// The steps, narrated as ``ScheduleNarrator/steps()`` gives them; with `folded` false,
    /// every step, as ``ScheduleNarrator/everyStep()`` gives them.
    func narrated(folded: Bool = true) -> [String] {
      var everyFrame = Array(state.spawnSites.values.joined())
      for case .job(let job) in state.steps {
        everyFrame += job.parked.values.joined()
        everyFrame += job.after.values.joined()
      }
      everyFrame += (state.unfinished ?? []).compactMap(\.frames).joined()
      Symbolicator.shared.prepare(everyFrame)
      var writer = NarrationWriter(state: state)
      for step in state.steps {
        switch step {
        case .choice(let label, let first): writer.choose(label, aheadOf: first)
        case .job(let job): writer.narrate(job)
        }
      }
      var text = writer.text(folded: folded)
      if state.unnarrated > 0 {
        text.append("… \(state.unnarrated) more steps, not told")
      }
      if let unfinished = state.unfinished {
        text.append(writer.stop(unfinished, looping: state.stoppedLooping))
      }
      return text
    }
  }

  /// Narrates the steps one by one, keeping what it learns on the way: which tasks have started
  /// and which have entered which actor.
  struct NarrationWriter {
    let state: State
    private var sites: [TaskIdentity: String] = [:]
    private var spawnedAt: [String: [TaskIdentity]] = [:]
    private var started = Set<TaskIdentity>()
    /// The tasks inside each actor, by the actor's address: each has entered one of the
    /// actor's methods and not yet returned from it.
    private var entered: [UInt: Set<TaskIdentity>] = [:]
    private var lines: [StoryLine] = []
    /// A mark for each frame whose line a step will name, by the frame.
    private var lineMarks: [CodeFrame: Int] = [:]
    /// Jobs of one task in a row, with nothing between them, are one stretch of that task:
    /// narrated as one step, from where it resumed to where it went on.
    private var stretch: (task: TaskIdentity, line: String, last: String?)?

    init(state: State) {
      self.state = state
      // Only a task with no other name is named by where it was spawned: read only those.
      for (task, _) in state.numbers.sorted(by: { $0.value < $1.value })
      where task != state.root && state.labels[task] == nil && state.names[task] == nil {
        guard let frames = state.spawnSites[task],
          let place = Symbolicator.shared.firstProgramSymbol(in: frames)?.place
        else { continue }
        sites[task] = place
        spawnedAt[place, default: []].append(task)
      }
    }

    /// The scenario's own task as "the scenario"; tasks spawned through its provider by
    /// their label ("task #2 'tap'"); others by their name, else by where they were spawned
    /// ("the second task spawned at Search.swift:35"), else by when they were first seen.
    func name(_ task: TaskIdentity?, turnOf actorName: String? = nil) -> String {
      guard let task else { return actorName.map { "\($0)'s turn" } ?? "an actor's turn" }
      if task == state.root { return "the scenario" }
      if state.sleepEnds.contains(task) { return "a sleep's end" }
      if let label = state.labels[task] { return label }
      if let name = state.names[task] { return "task '\(name)'" }
      if let place = sites[task], let siblings = spawnedAt[place],
        let position = siblings.firstIndex(of: task)
      {
        let which = siblings.count == 1 ? "the task" : "the \(ordinal(position + 1)) task"
        return "\(which) spawned at \(place)"
      }
      return "unnamed task" + (state.numbers[task].map { " #\($0)" } ?? "")
    }

    /// Where `frames` go on: " in ImageCache.image(_:)" and a mark for its line, which is
    /// read only if the step is narrated (see ``narration()``).
    mutating func place(_ frames: [CodeFrame]?) -> String? {
      guard let frames, let (frame, function) = Symbolicator.shared.firstProgramFunction(in: frames)
      else { return nil }
      let index =
        lineMarks[frame]
        ?? {
          lineMarks[frame] = lineMarks.count
          return lineMarks.count - 1
        }()
      return " in \(function)" + Self.mark(index)
    }

    private static func mark(_ index: Int) -> String { "\u{1}\(index)\u{1}" }

    mutating func choose(_ label: String, aheadOf first: Default?) {
      endStretch()
      switch first {
      case .job(let task, let actorName)?:
        lines.append(
          StoryLine(text: label + " (ahead of \(name(task, turnOf: actorName)))", weight: .matters))
      case .choice(let option)?:
        lines.append(StoryLine(text: label + " (ahead of \(option))", weight: .matters))
      case nil:
        lines.append(StoryLine(text: label, weight: .matters))
      }
    }

    mutating func narrate(_ job: JobStep) {
      let departs = job.decided && job.sequence != job.oldest.sequence
      let heldBack = departs ? name(job.oldest.task, turnOf: job.oldest.actorName) : nil
      let mark = heldBack.map { " (ahead of \($0))" } ?? ""
      let linesBefore = lines.count
      defer {
        // Every line this step narrated that departs is one ahead of the same task.
        if let heldBack {
          let runner = job.task.map { name($0) } ?? job.actorName.map { "\($0)'s turn" }
          for index in linesBefore..<lines.count where lines[index].weight == .matters {
            lines[index].holdsBack = heldBack
            lines[index].runner = runner
          }
        }
      }
      guard let task = job.task else {
        narrateTurn(job, departs: departs, mark: mark)
        return
      }
      if state.sleepEnds.contains(task), !departs { return }
      // A task's first job is its start; a job that resumes only the toolkit's plumbing (a
      // controlled call) is left out unless its order was chosen.
      if started.insert(task).inserted {
        // The scenario's start is the test's first line.
        if task != state.root || departs {
          add("\(name(task)) starts" + mark, weight: departs ? .matters : .context)
        }
      } else if let resumed = place(job.parked[task]) {
        add(
          "\(name(task)) resumes" + resumed + mark, weight: departs ? .matters : .quiet, of: task,
          at: resumed)
      } else if departs {
        add("\(name(task)) resumes" + mark, weight: .matters)
      }
    }

    /// An actor's turn: each task it ran, in the order they came to it, where each was
    /// parked, and who was suspended inside the actor as it entered.
    private mutating func narrateTurn(_ job: JobStep, departs: Bool, mark: String) {
      guard !job.ran.isEmpty else {
        if departs { add("an actor runs its next task" + mark, weight: .matters) }
        return
      }
      var now = job.parked
      let actor = job.actorName ?? "an actor"
      var inside = job.actor.flatMap { entered[$0] } ?? []
      for (position, task) in job.ran.enumerated() {
        let verb = started.insert(task).inserted ? "starts" : "resumes"
        let lead = position == 0 ? mark : ""
        // A task entering an actor (not resuming inside it after an await of its own) while
        // another is suspended inside it: the reentrancy a race is made of.
        let suspended =
          inside.contains(task)
          ? nil
          : inside.sorted { state.numbers[$0, default: 0] < state.numbers[$1, default: 0] }
            .first { other in other != task && isInside(job.actorName, now[other]) }
        if let suspended, let place = place(now[suspended]) {
          add(
            "\(name(task)) enters \(actor)" + lead + " while \(name(suspended)) is suspended"
              + place, weight: .matters)
        } else {
          add(
            "\(name(task)) \(verb)" + (place(job.parked[task]) ?? "") + " on \(actor)" + lead,
            weight: departs && position == 0 ? .matters : .quiet)
        }
        if let after = job.after[task] { now[task] = after }
        // Inside until none of its frames is a method of the actor's.
        if isInside(job.actorName, now[task]) {
          inside.insert(task)
        } else {
          inside.remove(task)
        }
      }
      if let address = job.actor { entered[address] = inside }
    }

    /// Whether any of `frames` is a method of the type named `type`.
    private func isInside(_ type: String?, _ frames: [CodeFrame]?) -> Bool {
      guard let type, let frames else { return false }
      return Symbolicator.shared.programFunctions(in: frames).contains {
        Self.typeName(of: $0) == type
      }
    }

    private mutating func add(
      _ text: String, weight: StoryLine.Weight, of task: TaskIdentity? = nil,
      at resumed: String? = nil
    ) {
      if let task, weight == .quiet, let current = stretch, current.task == task {
        stretch?.last = resumed
        return
      }
      endStretch()
      if let task, weight == .quiet {
        stretch = (task, text, resumed)
      } else {
        lines.append(StoryLine(text: text, weight: weight))
      }
    }

    private mutating func endStretch() {
      guard let current = stretch else { return }
      if let last = current.last, !current.line.hasSuffix(last) {
        lines.append(StoryLine(text: current.line + ", then" + last, weight: .quiet))
      } else {
        lines.append(StoryLine(text: current.line, weight: .quiet))
      }
      stretch = nil
    }

    /// The story's last step, where the schedule stopped unfinished: where each task that had
    /// not ended waits, so a hang reads as who waits for what; a task ready to run again is one
    /// that loops rather than waits.
    mutating func stop(
      _ unfinished: [(task: TaskIdentity, frames: [CodeFrame]?, isReady: Bool)], looping: Bool
    ) -> String {
      let narrated = unfinished.map { task, frames, isReady in
        let place = place(frames) ?? ""
        return isReady
          ? "\(name(task)) is ready to run again" + place + " (it loops)"
          : "\(name(task)) waits" + place
      }
      let lead =
        looping ? "then the schedule stops, as it would not settle" : "then nothing can run"
      return resolve(narrated.isEmpty ? lead : lead + ": " + narrated.joined(separator: "; "))
    }

    /// The lines, folded as ``StoryFolding`` folds them unless `folded` is false, each
    /// frame's line read now.
    mutating func text(folded: Bool) -> [String] {
      endStretch()
      guard folded else { return lines.map { resolve($0.text) } }
      return StoryFolding.fold(lines).map(resolve)
    }

    /// A narrated step with the line of each frame it names, read now: only for the steps that
    /// are narrated, not those folded away.
    private func resolve(_ text: String) -> String {
      guard text.contains("\u{1}") else { return text }
      let frames = Dictionary(uniqueKeysWithValues: lineMarks.map { ($0.value, $0.key) })
      let pieces = text.split(separator: "\u{1}", omittingEmptySubsequences: false)
      // Every other piece is a mark's index.
      return pieces.enumerated().map { position, piece in
        guard position % 2 == 1, let index = Int(piece), let frame = frames[index] else {
          return String(piece)
        }
        return Symbolicator.shared.place(of: frame).map { " at \($0)" } ?? ""
      }.joined()
    }

    /// `ImageCache` for `ImageCache.image(_:)`: the type an instance method belongs to; `nil`
    /// for a closure, a static method (not the actor's) or a function of no type.
    static func typeName(of function: String) -> String? {
      let name = Substring(function)
      guard !name.hasPrefix("a closure"), !name.hasPrefix("static "),
        let paren = name.firstIndex(of: "(")
      else { return nil }
      let path = name[..<paren]
      guard let dot = path.lastIndex(of: ".") else { return nil }
      return String(path[..<dot])
    }

    private func ordinal(_ number: Int) -> String {
      let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
      return number <= words.count ? words[number - 1] : "\(number)th"
    }
  }
}
