// The sample "timeout-exploration" of TestingCodeThatSleeps.md, whole, as a reader copies it.

// sample: timeout-exploration
import ConcurrencyExtras
import TaskProvidingTesting
import Testing

@Suite struct TimeoutExplorationTests {
  /// In an exploration, a sleep's end is an option like an answer: a timeout racing its
  /// answer is explored both ways, the answer just before the timeout and just after.
  @Test func aTimeoutIsExploredOnBothSidesOfItsAnswer() async {
    let outcomes = LockIsolated<Set<String>>([])
    let report = await explore(.exhaustive()) { _ in
      let fetch = ControlledFunction<Int, String>("fetch", answers: { "fact \($0)" })
      let first = await withTaskGroup(of: String.self) { group in
        group.addTask { (try? await fetch.function(7)) ?? "cancelled" }
        group.addTask {
          do {
            try await Task.sleep(for: .seconds(1))  // virtual time
            return "timed out"
          } catch {
            return "cancelled"
          }
        }
        let first = await group.next() ?? "none"
        group.cancelAll()
        return first
      }
      outcomes.withValue { _ = $0.insert(first) }
    }
    #expect(report.failure == nil)
    #expect(report.coversEverySchedule)
    #expect(outcomes.value == ["fact 7", "timed out"])
  }
}
// end sample
