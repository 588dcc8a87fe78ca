import FactStore
import Foundation
import NumberFactCore
import NumberFactTesting
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import FeatureScenarios

/// The feature and its store, deterministically: writes held by a controlled store, requests
/// by a controlled client, every task recorded.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))), .exploring())
struct StoreTests {
  nonisolated static let now = Date(timeIntervalSince1970: 1_700_000_000)

  /// Taps get-fact and answers its request with `text`; returns once the tap has ended, so
  /// the fact is on screen and its write has been spawned.
  func showFact(
    _ text: String, on model: NumberFactFeature, answering facts: ControlledNumberFactClient
  ) async throws {
    let tap = Task { await model.getFactButtonTapped() }
    try await facts.nextRequest().answer(text)
    try await tap.value(timeout: AppFailureBound.standard)
  }

  @Test func aSlowWriteDoesNotHoldUpTheNextFact() async throws {
    let facts = ControlledNumberFactClient()
    let disk = ControlledFactStore()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(
        client: facts.client, store: disk.store, provider: provider, now: { Self.now })
      try await showFact("0 is nothing.", on: model, answering: facts)
      let write = try await disk.nextWrite()  // the disk is slow: this write is held
      #expect(write.input.facts.map(\.text) == ["0 is nothing."])
      #expect(write.input.seen == Self.now)
      #expect(write.input.session == .init(count: 0, kind: .trivia))

      model.incrementButtonTapped()
      try await showFact("1 is one.", on: model, answering: facts)
      #expect(model.state.fact?.text == "1 is one.")
      #expect(model.history.map(\.text) == ["0 is nothing.", "1 is one."])
      write.answer(())
      try await disk.nextWrite().answer(())
      try await provider.waitForAll()
    }
  }

  @Test func aWriteRacingANewerRequestKeepsTheOrderFactsWereShown() async throws {
    let facts = ControlledNumberFactClient()
    let disk = ControlledFactStore()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(
        client: facts.client, store: disk.store, provider: provider, now: { Self.now })
      try await showFact("0 is nothing.", on: model, answering: facts)
      let older = try await disk.nextWrite()

      model.incrementButtonTapped()
      try await showFact("1 is one.", on: model, answering: facts)
      // The newer fact's write waits for the older one: the store never sees it first.
      #expect(disk.writes.callCount == 1)
      older.answer(())
      let newer = try await disk.nextWrite()
      #expect(newer.input.facts.map(\.text) == ["1 is one."])
      newer.answer(())
      try await provider.waitForAll()
      #expect(disk.savedSessions.map(\.count) == [0, 1])
    }
  }

  @Test func aFailingWriteIsSaidOnceAndFactsKeepComing() async throws {
    let facts = ControlledNumberFactClient()
    let disk = ControlledFactStore()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(
        client: facts.client, store: disk.store, provider: provider, now: { Self.now })
      for number in 0..<3 {
        if number > 0 { model.incrementButtonTapped() }
        try await showFact("fact \(number)", on: model, answering: facts)
        try await disk.nextWrite().fail(FactStoreError.diskFull(path: "/full/store.sqlite"))
      }
      try await provider.waitForAll()
      #expect(model.state.fact?.text == "fact 2")
      #expect(model.state.errorMessage == nil)
      #expect(
        model.state.storeMessage
          == "The disk holding /full/store.sqlite is full; facts are not remembered until there is room."
      )
    }
  }

  /// A fact the store has is in the state before the key's handler returns: the request
  /// starts at once on the main actor and never suspends, so the loop lays out one frame,
  /// the fact's, with no loading frame before it and no spinner.
  @Test func aStoredFactIsShownBeforeTheRequestReturns() async throws {
    let store = FactStore.inMemory()
    try await store.record([liveFact(2, "two")], Self.now)
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(
        count: 2, client: .seenFirst(store: store), store: nil, provider: provider,
        now: { Self.now })
      model.requestFact()
      #expect(model.state.fact?.text == "two")
      #expect(model.state.fact?.source == .stored)
      #expect(!model.state.isLoading)
      try await provider.waitForAll()
    }
  }

  /// A request that must wait (here for a controlled answer) shows that it is loading.
  @Test func aRequestThatWaitsIsLoadingWhenTheRequestReturns() async throws {
    let facts = ControlledNumberFactClient()
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(
        client: facts.client, store: nil, provider: provider, now: { Self.now })
      model.requestFact()
      #expect(model.state.isLoading)
      #expect(model.state.fact == nil)
      try await facts.nextRequest().answer("0 is nothing.")
      try await provider.waitForAll()
      #expect(model.state.fact?.text == "0 is nothing.")
      #expect(!model.state.isLoading)
    }
  }

  @Test func earlierRunsComeBeforeThisOneInHistoryWithoutRepeats() async throws {
    let facts = ControlledNumberFactClient()
    let stored = [liveFact(2, "two"), liveFact(1, "one")]  // newest first, as a store reads
    let disk = ControlledFactStore(stored: stored, session: .init(count: 2, kind: .math))
    try await withRecordingTaskProvider { provider in
      let model = makeFeature(
        count: 1, client: facts.client, store: disk.store, provider: provider, now: { Self.now })
      try await showFact("one", on: model, answering: facts)
      await model.restoreFromStore(session: true)
      #expect(model.history.map(\.text) == ["two", "one"])
      #expect(model.historyPosition == HistoryPosition(number: 2, of: 2))
      // The person had moved already: the stored session does not undo it.
      #expect(model.state.count == 1)
      #expect(model.state.kind == .trivia)
      try await disk.nextWrite().answer(())
      model.oldestFactButtonTapped()
      #expect(model.state.fact?.text == "two")
      try await provider.waitForAll()
    }
  }

  @Test func theSessionIsRestoredWhenThePersonHasNotMoved() async throws {
    let disk = ControlledFactStore(session: .init(count: -40, kind: .year))
    await withRecordingTaskProvider { provider in
      let model = makeFeature(
        client: .offline, store: disk.store, provider: provider, now: { Self.now })
      await model.restoreFromStore(session: true)
      #expect(model.state == State(count: -40, kind: .year))
      let other = makeFeature(
        client: .offline, store: disk.store, provider: provider, now: { Self.now })
      await other.restoreFromStore(session: false)
      #expect(other.state == State())
    }
  }
}
