// From the field: GraphQLSwift's DataLoader dropped a waiter between two actors
// (https://github.com/GraphQLSwift/DataLoader/pull/27): fulfilling resumes the waiters it
// read, awaits the state actor again, then clears the list, dropping a waiter that came in
// between; that reader waits for ever. Shrunk and retold.

import TaskProviding
import TaskProvidingTesting

/// The state behind a result: the value, and who waits for it.
actor ResultState {
  private(set) var value: Int?
  private(set) var waiters: [CheckedContinuation<Int, Never>] = []
  func set(_ value: Int) { self.value = value }
  func add(_ waiter: CheckedContinuation<Int, Never>) { waiters.append(waiter) }
  func removeAll() { waiters.removeAll() }
}

/// A result many readers await. Flawed: every step of reading and fulfilling is a hop to the
/// state actor, so a reader can register between the fulfiller's read and its clear.
actor SplitResult {
  private let state = ResultState()
  /// Spawns the registration, where the code takes a provider; `nil` spawns it plainly.
  private let provider: (any TaskProvider)?

  init(provider: (any TaskProvider)? = nil) { self.provider = provider }

  func fulfill(_ value: Int) async {
    await state.set(value)
    for waiter in await state.waiters { waiter.resume(returning: value) }
    await state.removeAll()
  }

  func read() async -> Int {
    if let value = await state.value { return value }
    let state = state
    let provider = provider
    return await withCheckedContinuation { continuation in
      if let provider {
        provider.detachedTask { await Self.register(continuation, in: state) }
      } else {
        Task.detached { await Self.register(continuation, in: state) }
      }
    }
  }

  /// Registers a waiter from outside the actor: two hops to the state, with the pool
  /// between them.
  private static func register(
    _ waiter: CheckedContinuation<Int, Never>, in state: ResultState
  ) async {
    if let value = await state.value { return waiter.resume(returning: value) }
    await state.add(waiter)
  }
}

/// The fix: the state lives in the one actor, and each step is one synchronous turn.
actor WholeResult {
  private var value: Int?
  private var waiters: [CheckedContinuation<Int, Never>] = []

  func fulfill(_ value: Int) {
    self.value = value
    let waiting = waiters
    waiters = []
    for waiter in waiting { waiter.resume(returning: value) }
  }

  func read() async -> Int {
    if let value { return value }
    return await withCheckedContinuation { waiters.append($0) }
  }
}

extension CatalogEntry {
  /// The bug as it shipped: the code under test spawns its registration with a plain
  /// `Task.detached`.
  public static let waiterDroppedAcrossActors = CatalogEntry(
    name: "a waiter dropped between two actors (DataLoader)",
    summary: "a reader registers between the fulfiller's resume and its clear, and waits for ever",
    bug: { exploration in
      let result = SplitResult()
      try await readWhileFulfilling(
        exploration, read: { await result.read() }, fulfill: { await result.fulfill(7) })
    },
    fixed: { exploration in
      let result = WholeResult()
      try await readWhileFulfilling(
        exploration, read: { await result.read() }, fulfill: { await result.fulfill(7) })
    })

  /// The same bug where the code under test takes a provider and spawns its registration
  /// through it, as does the scenario its reader and fulfiller. Where the explorer cannot see
  /// a plain task being created (Apple's platforms), this is the form it can explore: the
  /// provider gives each task the explorer's executor, so every hop is a choice.
  public static let waiterDroppedAcrossActorsThroughAProvider = CatalogEntry(
    name: "a waiter dropped between two actors (DataLoader), spawned through a provider",
    summary: waiterDroppedAcrossActors.summary,
    bug: { exploration in
      let result = SplitResult(provider: exploration.provider)
      try await readWhileFulfilling(
        exploration, through: exploration.provider, read: { await result.read() },
        fulfill: { await result.fulfill(7) })
    },
    fixed: { exploration in
      let result = WholeResult()
      try await readWhileFulfilling(
        exploration, through: exploration.provider, read: { await result.read() },
        fulfill: { await result.fulfill(7) })
    })

  @MainActor
  private static func readWhileFulfilling(
    _ exploration: Exploration, through provider: (any TaskProvider)? = nil,
    read: @escaping @Sendable () async -> Int, fulfill: @escaping @Sendable () async -> Void
  ) async throws {
    let reader =
      provider?.detachedTask(name: "reader") { await read() }
      ?? Task.detached(name: "reader") { await read() }
    let fulfiller =
      provider?.detachedTask(name: "fulfiller") { await fulfill() }
      ?? Task.detached(name: "fulfiller") { await fulfill() }
    await fulfiller.value
    let read = await reader.value
    exploration.atEnd("the reader gets the value") { read == 7 }
  }
}
