// The sample "sendable-test" of AdoptingInASendableService.md, whole, as a reader copies it.

// sample: sendable-test
import TaskProvidingTesting
import Testing

@Test(.recordingTaskProvider)
func prefetchesEveryKey() async throws {
  let prefetcher = Prefetcher(fetch: { _ in })
  prefetcher.prefetch(["a", "b", "c"])
  try await RecordingTaskProvider.current.waitForAll()
  #expect(prefetcher.fetched.value == ["a", "b", "c"])
  #expect(RecordingTaskProvider.current.records.allSatisfy { $0.kind == .detached })
}
// end sample
