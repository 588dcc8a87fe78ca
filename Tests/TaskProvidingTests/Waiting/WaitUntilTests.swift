import Observation
import TaskProvidingTesting
import Testing

/// `waitUntil` on an observable model: it returns once the condition holds, and a wait that
/// gives up says what the model held last, at the caller's line.
@MainActor @Suite struct WaitUntilTests {
  @Observable final class Counter {
    var count = 0
  }

  @Test func returnsOnceAChangeMakesTheConditionHold() async throws {
    let counter = Counter()
    Task { counter.count = 3 }
    try await waitUntil(counter, timeout: .seconds(5)) { $0.count == 3 }  // failure bound
    #expect(counter.count == 3)
  }

  @Test func aConditionThatNeverHoldsThrowsWithTheLastState() async throws {
    let counter = Counter()
    counter.count = 4
    await #expect {
      try await waitUntil(counter, timeout: .milliseconds(20)) { $0.count == 100 }  // failure bound
    } throws: { error in
      let description = String(describing: error)
      return error is WaitUntilTimeoutError && description.contains("did not hold within")
        && description.contains("count: 4")
        && description.contains("waitUntil at TaskProvidingTests/WaitUntilTests.swift:")
    }
  }
}
