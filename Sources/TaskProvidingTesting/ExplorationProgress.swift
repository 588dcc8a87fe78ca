#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an exploration running in a child process writes as it goes, one line at a time and
/// straight to its file, so that the test process still knows which schedule ran, and how
/// far, when the child dies inside it.
///
/// Lines: `S` a schedule begins; `D decision option` it departs from the default order;
/// `C index` a candidate of a trapping schedule's reduction begins; `R payload` the report;
/// `E` no candidate trapped; `T steps` the steps told up to a trap.
@MainActor
package final class ExplorationProgress {
  private let descriptor: Int32
  /// The narrator of the schedule being told, for the last words of a trap.
  private(set) var narrator: ScheduleNarrator?

  /// Appends to the file at `path`; `nil` if it cannot be opened.
  init?(path: String) {
    descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
  }

  func scheduleBegins() { line("S") }

  func departed(at decision: Int, option: Int) { line("D \(decision) \(option)") }

  func candidateBegins(_ index: Int) { line("C \(index)") }

  /// The schedule now being run is told by `narrator` (`nil` once it ends).
  func narrating(_ narrator: ScheduleNarrator?) { self.narrator = narrator }

  /// One line; written whole with `write(2)` so that nothing waits in a buffer when the
  /// process dies.
  nonisolated func line(_ text: String) {
    var text = text + "\n"
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += written
      }
    }
  }
}
