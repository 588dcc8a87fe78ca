// The sample "serial-scheduler" of RunningEveryInterleaving.md, whole, as a reader copies it.

// sample: serial-scheduler
import TaskProvidingTesting
import Testing

@MainActor @Suite struct TapCounterTests {
  @Test func everyInterleavingCountsEveryTap() async throws {
    for seed in UInt64(1)...1_000 {
      try await withSerialScheduler(order: .random(seed: seed)) {
        try await withRecordingTaskProvider { provider in
          let counter = TapCounter(taskProvider: provider)
          for _ in 0..<3 { counter.tapped() }
          try await provider.waitForAll()
          #expect(counter.count == 3, "seed \(seed)")
        }
      }
    }
  }
}
// end sample
