import LockSupport

/// Whether a debugger is attached to this process, so that a test stopped at a breakpoint is
/// not ended by the toolkit's timeouts or its job watchdog.
///
/// A person who replays a failing schedule under a debugger stops the process for as long as
/// they read it. The bounds measure real time, so without this each would fire the moment the
/// process runs again: a controlled call's wait would fail, and the watchdog would end the run
/// as if a job had hung. While a debugger is attached, they wait instead, and say once why.
///
/// Where the platform offers no way to tell (see `Platform/`), no debugger is ever seen and
/// the bounds behave as without one.
enum DebuggerPresence {
  /// Whether a debugger is attached right now. Read only where a timeout is about to fire.
  static var isAttached: Bool { debuggerIsAttached() }

  private static let told = OnceFlag()

  /// Whether a Linux process status (`/proc/PID/status`) names a tracer: a nonzero
  /// `TracerPid`.
  static func isTraced(status: String) -> Bool {
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") })
    else { return false }
    let pid = line.dropFirst("TracerPid:".count).trimmingPrefix(while: \.isWhitespace)
    return (Int(pid) ?? 0) != 0
  }

  /// Says once, on standard error, that the bounds wait while a debugger is attached.
  static func noteHeldBound() {
    let first = told.raise()
    guard first else { return }
    print(
      "TaskProvidingTesting: a debugger is attached, so timeouts and the job watchdog"
        + " wait while it is rather than end the test.")
  }
}
