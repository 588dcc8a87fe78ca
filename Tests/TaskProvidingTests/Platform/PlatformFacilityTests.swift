import SuiteSupport
import Testing

@testable import TaskProvidingTesting

/// The platform facilities as this platform has them, and what the portable parts around
/// them say when one is missing.
@Suite struct PlatformFacilityTests {
  @Test func thisRuntimeExportsEveryEntryPointTheSchedulerNeeds() {
    #expect(RuntimeHooks.missing == [])
    #expect(RuntimeHooks.isAvailable)
  }

  @Test func aMissingHookIsNamedWithTheRuntimesThatHaveIt() {
    let error = SerialSchedulerUnavailableError(
      missingEntryPoints: ["swift_task_getMainExecutor_hook"])
    #expect(error.description.contains("does not export swift_task_getMainExecutor_hook."))
    #expect(error.description.contains("macOS 15.4, iOS 18.4"))
  }

  @Test func aChildsEnvironmentReplacesTheVariablesItChanges() {
    let merged = ChildSpawn.merged(
      ["PATH=/bin", "SWIFT_BACKTRACE=enable=yes", "HOME=/root"],
      with: ["SWIFT_BACKTRACE": "enable=no", "TASK": "1"])
    #expect(merged == ["PATH=/bin", "HOME=/root", "SWIFT_BACKTRACE=enable=no", "TASK=1"])
  }

  @Test func anEnvironmentVariableThatIsNotSetReadsAsNil() {
    #expect(environmentValue("TASK_PROVIDING_NO_SUCH_VARIABLE_IS_SET") == nil)
    #expect(environmentValue("PATH") != nil)
  }

  /// Files serve only a child process: where none starts, none opens.
  @Test func aFileWrittenWholeReadsBackWhole() throws {
    guard LinuxFacilities.startChildren else {
      #expect(TemporaryFolder() == nil)
      #expect(OutputFile(path: "/dev/null", appending: true) == nil)
      return
    }
    let folder = try #require(TemporaryFolder())
    defer { folder.remove() }
    let path = folder.path + "/lines"
    let file = try #require(OutputFile(path: path, appending: true))
    #expect(file.write("one\n"))
    #expect(file.write("two\n"))
    file.close()
    #expect(readWholeFile(path) == "one\ntwo\n")
    #expect(readWholeFile(folder.path + "/missing") == "")
  }

  @Test(.timeLimit(.minutes(1))) func aDeadlineTimerFiresWhenArmed() async {
    let timer = DeadlineTimer(label: "PlatformFacilityTests")
    let fired = AsyncStream<Void>.makeStream()
    timer.start { fired.continuation.yield() }
    timer.arm(at: DeadlineTimer.now)
    var iterator = fired.stream.makeAsyncIterator()
    // The firing is what is awaited; the test's time limit is the failure bound.
    #expect(await iterator.next() != nil)
    timer.arm(at: nil)
  }
}
