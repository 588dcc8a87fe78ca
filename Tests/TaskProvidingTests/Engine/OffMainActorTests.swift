import Dispatch
import SuiteSupport
import Testing

@testable import TaskProvidingTesting

/// Main-actor code called on another thread while a scope holds the main actor ends the
/// process, as the runtime requires, with a message that says where it ran and what to do.
@Suite struct OffMainActorTests {
  @Test(.exitTestThread) func mainActorCodeOnAQueueSaysWhereAndWhy() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        // In this process, not a child of it, where a trap would be a failed schedule.
        _ = await ExplorationRoute.$inProcess.withValue(true) {
          await explore(.exhaustive(limit: 1)) { _ in
            // A library calling a main-actor callback on a queue of its own.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
              MainActor.assumeIsolated {}
              done.signal()
            }
            done.wait()
          }
        }
      })
    let said = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(said.contains("on a thread with no task"), "\(said.prefix(2_000))")
    #expect(said.contains("a closure formed in @MainActor code"))
  }
}
