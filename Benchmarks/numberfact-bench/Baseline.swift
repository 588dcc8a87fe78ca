import Foundation

/// The smallest ncurses program that draws what the app's first screen draws and counts on
/// `+`: the baseline for the app's launch time, memory and key latency.
let minimalCursesProgram = #"""
  #include <curses.h>
  #include <locale.h>

  static void draw(long count) {
    erase();
    mvprintw(0, 1, "numberfact");
    mvprintw(2, 2, "Count  %ld", count);
    mvprintw(3, 2, "Kind   trivia");
    mvprintw(5, 2, "Press f for a trivia fact about %ld.", count);
    mvprintw(LINES - 1, 1, "+/- count  f fact  c cancel  t kind  ? help  q quit");
    refresh();
  }

  int main(void) {
    setlocale(LC_ALL, "");
    initscr();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    long count = 0;
    draw(count);
    for (int key; (key = getch()) != 'q' && key != ERR;) {
      if (key == '+') count += 1;
      draw(count);
    }
    endwin();
    return 0;
  }
  """#

extension Measure {
  /// Compiles ``minimalCursesProgram`` with the system's C compiler; `nil` when there is
  /// none, so the section reports the app alone.
  func cursesBaseline() async throws -> String? {
    let directory = FileManager.default.temporaryDirectory
      .appending(path: "numberfact-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let source = directory.appending(path: "minimal.c").path
    let binary = directory.appending(path: "minimal").path
    try minimalCursesProgram.write(toFile: source, atomically: true, encoding: .utf8)
    let (status, output) = try await onOwnThread {
      try runCommand(["cc", "-O2", "-o", binary, source, "-lncursesw"])
    }
    guard status == 0 else {
      log("the app: no C baseline: cc failed (\(status)): \(output)")
      return nil
    }
    return binary
  }
}
