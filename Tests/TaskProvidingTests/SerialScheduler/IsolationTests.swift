import TaskProviding
import TaskProvidingTesting
import Testing

@MainActor
final class Sequence {
  var seen: [Int] = []
}

actor Counter {
  var value = 0

  /// Spawns from inside the actor; the task must run on this actor, as `Task { }` would.
  func spawnIncrement(on provider: any TaskProvider) -> Task<Void, Never> {
    provider.task {
      self.assertIsolated()
      self.value += 1
    }
  }
}

@MainActor
@Suite struct IsolationTests {
  @Test(arguments: ProviderUnderTest.allCases)
  func taskFromTheMainActorRunsOnTheMainActor(provider kind: ProviderUnderTest) async throws {
    let provider = kind.make()
    let task = provider.task { () -> Bool in
      MainActor.assertIsolated()
      return #isolation === MainActor.shared
    }
    try await kind.settle(provider)
    #expect(await task.value)
  }

  @Test(arguments: ProviderUnderTest.allCases)
  func detachedTaskFromTheMainActorDoesNotInherit(provider kind: ProviderUnderTest) async throws {
    let provider = kind.make()
    let task = provider.detachedTask { #isolation == nil }
    try await kind.settle(provider)
    #expect(await task.value)
  }

  @Test(arguments: ProviderUnderTest.allCases)
  func taskFromAnActorRunsOnThatActor(provider kind: ProviderUnderTest) async throws {
    let provider = kind.make()
    let counter = Counter()
    let task = await counter.spawnIncrement(on: provider)
    try await kind.settle(provider)
    await task.value
    #expect(await counter.value == 1)
  }

  /// The recording wrapper keeps the caller's isolation, so main-actor tasks still start in
  /// spawn order; a wrapper that hopped through the global pool would shuffle them.
  @Test(arguments: [ProviderUnderTest.live, .recording])
  func mainActorTasksStartInSpawnOrder(provider kind: ProviderUnderTest) async throws {
    let provider = kind.make()
    let sequence = Sequence()
    var last: Task<Void, Never>?
    for index in 0..<1_000 {
      last = provider.task { sequence.seen.append(index) }
    }
    try await kind.settle(provider)
    await last?.value
    #expect(sequence.seen == Array(0..<1_000))
  }
}
