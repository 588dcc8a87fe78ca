import TaskProvidingTesting
import Testing
import Uploads

@MainActor @Suite(.recordingTaskProvider) struct UploadQueueTests {
  @Test func uploadsFinishInTheOrderTheServerAnswers() async throws {
    let server = ControlledFunction<String, Void>("upload")
    let provider = RecordingTaskProvider.current
    let queue = UploadQueue(upload: server.function, taskProvider: provider)

    queue.uploadTapped("a.txt")
    queue.uploadTapped("b.txt")
    // The two calls reach the server in either order: tell them apart by what they carry.
    let calls = [try await server.nextCall(), try await server.nextCall()]
    let a = try #require(calls.first { $0.input == "a.txt" })
    let b = try #require(calls.first { $0.input == "b.txt" })
    #expect(queue.inFlight == ["a.txt", "b.txt"])

    // Answered together, the two could finish in either order: wait for b's task first.
    b.answer(())
    try await provider.waitFor(provider.records[1])
    #expect(queue.uploaded == ["b.txt"])
    a.answer(())
    try await provider.waitForAll()
    #expect(queue.uploaded == ["b.txt", "a.txt"])
    #expect(queue.inFlight.isEmpty)
  }

  @Test func aFailedUploadIsNotListed() async throws {
    struct Offline: Error {}
    let server = ControlledFunction<String, Void>("upload")
    let queue = UploadQueue(upload: server.function, taskProvider: RecordingTaskProvider.current)
    queue.uploadTapped("c.txt")
    try await server.nextCall().fail(Offline())
    try await waitUntil(queue) { $0.inFlight.isEmpty }
    #expect(queue.uploaded.isEmpty)
  }
}
