/// What an exploration running in a child process writes as it goes, one line at a time and
/// straight to its file, so that the test process still knows which schedule ran, and how
/// far, when the child dies inside it.
///
/// Lines: `S` a schedule begins; `D decision option` it departs from the default order;
/// `C index` a candidate of a trapping schedule's reduction begins; `R payload` the report;
/// `E` no candidate trapped; `T steps` the steps narrated up to a trap.
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

  func scheduleBegins() { line("S") }

  func departed(at decision: Int, option: Int) { line("D \(decision) \(option)") }

  func candidateBegins(_ index: Int) { line("C \(index)") }

  /// The schedule now being run is narrated by `narrator` (`nil` once it ends).
  func narrating(_ narrator: ScheduleNarrator?) { self.narrator = narrator }

  /// One line; written whole with `write(2)` so that nothing waits in a buffer when the
  /// process dies.
  nonisolated func line(_ text: String) {
    file.write(text + "\n")
  }
}
