import SuiteSupport
import Testing

@testable import TaskProvidingTesting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failing schedule runs again with no edit to the test: the environment names the
/// exploration's place and its replay string.
@Suite struct ReplayFromEnvironmentTests {
  @Test func anEntryNamesTheReplayOfItsPlaceOnly() {
    let text = "A/B.swift:12=x2:3.1; A/C.swift:4=x2:\nA/D.swift:9=x2:1.2,5.1"
    #expect(ReplayFromEnvironment.replay(for: "A/B.swift:12", in: text) == "x2:3.1")
    #expect(ReplayFromEnvironment.replay(for: "A/C.swift:4", in: text) == "x2:")
    #expect(ReplayFromEnvironment.replay(for: "A/D.swift:9", in: text) == "x2:1.2,5.1")
    #expect(ReplayFromEnvironment.replay(for: "A/B.swift:1", in: text) == nil)
    #expect(ReplayFromEnvironment.replay(for: "A/B.swift:12", in: "no entry here") == nil)
  }

  /// In a process of its own, whose environment the test may change: the exploration the
  /// variable names runs the schedule it names (here an `x1:` string, which says so), and
  /// one at another place explores as written.
  @Test(.exitTestThread) func anExplorationTheEnvironmentNamesRunsItsSchedule() async {
    await #expect(processExitsWith: .success) {
      let named = CallSite(fileID: #fileID, filePath: #filePath, line: 9_001, column: 1)
      let other = CallSite(fileID: #fileID, filePath: #filePath, line: 9_002, column: 1)
      setenv(ReplayFromEnvironment.variable, "\(#fileID):9001=x1:", 1)
      let replayed = await exploringAsWritten(.exhaustive(), replay: nil, at: named) { _ in }
      let explored = await exploringAsWritten(.exhaustive(), replay: nil, at: other) { _ in }
      guard replayed.failure?.reason.contains("comes from an earlier version") == true,
        explored.failure == nil
      else { exit(1) }
    }
  }
}
