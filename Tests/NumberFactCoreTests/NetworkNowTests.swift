import LockSupport
import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// Asking the network now, while offline facts are shown: the back-off ends and the fact is asked
/// for at once. Each test waits on the controlled client's requests and the taps themselves.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct NetworkNowTests {
  @Test func askingTheNetworkNowEndsTheBackOffThenAsksForTheFact() async throws {
    let facts = ControlledNumberFactClient()
    let asked = Locked(0)
    var client = facts.client
    client.askNetworkNow = { asked.withLock { $0 += 1 } }
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(count: 5, client: client, provider: provider)
      let tap = Task { await model.askNetworkNowTapped() }
      let request = try await facts.nextRequest()
      // The back-off ended before the request was made.
      #expect(asked.withLock { $0 } == 1)
      #expect(request.number == 5)
      request.answer("5 is live again.")
      try await tap.value(timeout: AppFailureBound.standard)
      #expect(model.state.fact?.text == "5 is live again.")
    }
  }
}
