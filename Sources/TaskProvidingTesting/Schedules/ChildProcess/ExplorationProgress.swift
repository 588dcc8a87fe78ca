/// What an exploration running in a child process tells the test process as it goes, one
/// ``ChildMessage`` at a time and straight to its file, so that the test process still knows
/// which schedule ran, and how far, when the child dies inside it.
@MainActor
final class ExplorationProgress {
  private let file: OutputFile
  /// The narrator of the schedule being narrated, for the last words of a trap.
  private(set) var narrator: ScheduleNarrator?

  /// Appends to the file at `path`; `nil` if it cannot be opened.
  init?(path: String) {
    guard let file = OutputFile(path: path, appending: true) else { return nil }
    self.file = file
  }

  func scheduleBegins() { send(.scheduleBegins) }

  func departed(at decision: Int, option: Int) {
    send(.departed(decision: decision, option: option))
  }

  func candidateBegins(_ index: Int) { send(.candidateBegins(index: index)) }

  /// The schedule now being run is narrated by `narrator` (`nil` once it ends).
  func narrating(_ narrator: ScheduleNarrator?) { self.narrator = narrator }

  /// One message, as one line written whole with `write(2)`, so that nothing waits in a
  /// buffer when the process dies.
  nonisolated func send(_ message: ChildMessage) {
    file.write(message.line + "\n")
  }
}
