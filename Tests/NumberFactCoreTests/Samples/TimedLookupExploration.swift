// The sample "timed-lookup-exploration" of testing-async.md and ExploringSchedules.md, whole, as a reader copies it.

// sample: timed-lookup-exploration
import TaskProvidingTesting
import Testing

@MainActor @Suite struct TimedLookupTests {
  @Test func aTimeoutCanReplaceAnAnswerThatCameInTime() async {
    var report: ExplorationReport?
    await withKnownIssue("the timeout does not check that it is still loading") {
      report = await explore(.exhaustive()) { exploration in
        let define = ControlledFunction<String, String>("define", answers: { "\($0): a bird" })
        let lookup = TimedLookup(
          taskProvider: exploration.provider, clock: exploration.clock,
          define: define.function)
        var found = false
        exploration.action("look up swift") { lookup.lookUp("swift") }
        exploration.invariant("a definition found stays on screen") {
          if case .found = lookup.status { found = true }
          return !found || lookup.status != .timedOut
        }
      }
    }
    #expect(
      report?.failure?.steps.contains { $0.hasPrefix("advance the clock to 5") } == true)
  }
}
// end sample
