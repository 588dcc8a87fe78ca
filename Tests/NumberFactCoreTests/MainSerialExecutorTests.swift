import ConcurrencyExtras
import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import Testing

@testable import FeatureScenarios

/// `withMainSerialExecutor` swaps the runtime's process-wide global enqueue hook, for every
/// test in the process: each of these runs in an exit test, a child process of its own, so it
/// never runs beside a scheduler or another test.
@Suite(.timeLimit(.minutes(3))) struct MainSerialExecutorTests {
  /// The articles' setup: plain `Task { }` for the taps and a live provider, all on the
  /// main serial executor. The serial executor makes the order in which tasks run
  /// reproducible; it does not tell the test when work is done, so the test still
  /// synchronizes on the requests and the task handles, never on yields.
  @Suite(.exitTestThread) struct PlainTasks {
    // sample: serial-executor
    @Test func outOfOrderWithPlainTasks() async {
      await #expect(processExitsWith: .success) {
        try await withMainSerialExecutor { @MainActor in
          let facts = ControlledNumberFactClient(cancellation: .ignore)
          let model = makeFeature(client: facts.client, provider: LiveTaskProvider())

          let firstTap = Task { await model.getFactButtonTapped() }
          let first = try await facts.nextRequest()
          let secondTap = Task { await model.getFactButtonTapped() }
          let second = try await facts.nextRequest()

          first.answer("stale")
          try await firstTap.value(timeout: .seconds(5))
          #expect(model.state == State(isLoading: true))
          second.answer("fresh")
          try await secondTap.value(timeout: .seconds(5))
          #expect(model.state == State(fact: liveFact(0, "fresh")))
        }
      }
    }
    // end sample

    @Test func tapsSpawnedTogetherRequestInSpawnOrder() async {
      await #expect(processExitsWith: .success) {
        try await withMainSerialExecutor { @MainActor in
          let facts = ControlledNumberFactClient()
          let model = makeFeature(client: facts.client, provider: LiveTaskProvider())

          let taps = (0..<3).map { _ in Task { await model.getFactButtonTapped() } }
          // Each tap cancels the one before; the client answers cancelled ones by throwing.
          var requests: [ControlledNumberFactClient.Request] = []
          for _ in taps { requests.append(try await facts.nextRequest()) }
          #expect(requests.map(\.observedCancellation) == [true, true, false])
          requests[2].answer("last")
          for tap in taps { try await tap.value(timeout: .seconds(5)) }
          #expect(model.state == State(fact: liveFact(0, "last")))
        }
      }
    }

    @Test func cancelWithPlainTasks() async {
      await #expect(processExitsWith: .success) {
        try await withMainSerialExecutor { @MainActor in
          let facts = ControlledNumberFactClient()
          let model = makeFeature(client: facts.client, provider: LiveTaskProvider())

          let tap = Task { await model.getFactButtonTapped() }
          let request = try await facts.nextRequest()
          model.cancelButtonTapped()
          try await tap.value(timeout: .seconds(5))
          #expect(request.observedCancellation)
          #expect(model.state == State())
        }
      }
    }
  }
}
