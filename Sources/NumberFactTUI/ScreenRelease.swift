import CNcurses
import Glibc

/// When an ncurses screen may be deleted. `delscreen` frees every window ncurses keeps in
/// its list, and the list is one for the process: deleting one screen while another is
/// open leaves the other without its standard window. So a closed screen, and the files it
/// writes to, wait here until no screen is open. The app opens one; tests open several.
@MainActor
enum ScreenRelease {
  private static var openScreens = 0
  private static var closed: [(screen: OpaquePointer, files: [UnsafeMutablePointer<FILE>])] = []

  /// Counts a screen `newterm` has just made.
  static func opened() {
    openScreens += 1
  }

  /// Deletes `screen` and closes `files` now, or when the last open screen closes.
  static func close(_ screen: OpaquePointer, files: [UnsafeMutablePointer<FILE>]) {
    openScreens -= 1
    closed.append((screen, files))
    guard openScreens == 0 else { return }
    for (screen, files) in closed {
      delscreen(screen)
      for file in files { fclose(file) }
    }
    closed = []
  }
}
