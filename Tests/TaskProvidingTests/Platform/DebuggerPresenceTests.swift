import Testing

@testable import TaskProvidingTesting

/// A debugger is told from a process's status as Linux gives it: a nonzero `TracerPid`.
@Suite struct DebuggerPresenceTests {
  @Test func aTracerPidNamesADebugger() {
    #expect(
      DebuggerPresence.isTraced(status: "Name:\tx\nState:\tt (tracing stop)\nTracerPid:\t4242\n"))
  }

  @Test func aZeroOrMissingTracerPidNamesNone() {
    #expect(!DebuggerPresence.isTraced(status: "Name:\tx\nTracerPid:\t0\nUid:\t0\n"))
    #expect(!DebuggerPresence.isTraced(status: "Name:\tx\n"))
    #expect(!DebuggerPresence.isTraced(status: "TracerPid:\tnot a number\n"))
  }
}
