import Dependencies
@_exported import FactClient
@_exported import FactStore
import Foundation
import LockSupport
import Observation
import TaskProviding

/// The counter whose number you can ask facts about: the app's whole behaviour, with no UI.
///
/// Its state is one value, ``state``, which a view draws and a test compares. A person's
/// action is a method: those that ask for a fact come in two forms, one that spawns the
/// request through the task provider and returns its task at once (for a key handler), and
/// one that awaits it (for a caller that must know when it has ended, such as a test);
/// cancelling the awaiting caller cancels the request.
///
/// Only the latest request may write. A request that was superseded (by another request, a
/// count or kind change, or the cancel button) writes nothing when it ends, even if its
/// client ignored cancellation and answered anyway, and it never clears `isLoading` for the
/// request that replaced it. What is shown is written to the store (``FactStore``) in the
/// order it was shown (see NumberFactFeature+Store.swift).
@MainActor @Observable
package final class NumberFactFeature {
  /// Everything on screen, as one value: what a view draws and what a test compares. The
  /// feature keeps its state here and nowhere else.
  package internal(set) var state: State

  /// The facts seen and which of them is on screen: those of earlier runs once
  /// ``restoreFromStore(session:)`` has read them, then this session's.
  package internal(set) var seen: FactHistory
  /// The facts seen, oldest first (see ``FactHistory``).
  package var history: [NumberFact] { seen.facts }

  /// The most facts ``history`` keeps, unless the feature was made with another limit.
  package static let historyLimit = 1_000

  // Resolved once, at init, into plain values: a dump of the model (a test's failure
  // message) then shows which client and provider it uses, not the dependency machinery.
  @ObservationIgnored private let numberFact: NumberFactClient
  @ObservationIgnored let taskProvider: any TaskProvider
  @ObservationIgnored let store: FactStore?
  @ObservationIgnored let now: @Sendable () -> Date
  /// The latest write to the store. Each write waits for the one before it, so the store
  /// keeps facts in the order they were shown, whatever order the writes are scheduled in.
  @ObservationIgnored var lastWrite: Task<Void, Never>?
  /// Whether the person has moved the count or kind, or asked for a fact, since the feature
  /// was made: a session read from the store later must not undo that.
  @ObservationIgnored var hasMoved = false

  /// The task of the request in flight, to cancel it.
  @ObservationIgnored private var requestTask: Task<Void, Never>?
  @ObservationIgnored private var lastRequestID: UInt64 = 0
  /// The latest request's id while it may still write: how a request knows, when it ends,
  /// whether it is still the latest (handles cannot be compared from inside the task they
  /// belong to). Set before its task starts, since an immediate task can end before its
  /// handle is returned.
  @ObservationIgnored private var activeRequestID: UInt64?

  /// Creates the feature; its fact client and task provider come from the dependencies
  /// current at this call.
  ///
  /// - Parameter store: Where facts shown are kept and earlier runs' are read; `nil`, the
  ///   default, remembers nothing.
  package convenience init(count: Int = 0, kind: FactKind = .trivia, store: FactStore? = nil) {
    @Dependency(\.numberFact) var numberFact
    @Dependency(\.taskProvider) var taskProvider
    self.init(
      count: count, kind: kind, numberFact: numberFact, taskProvider: taskProvider,
      store: store)
  }

  /// Creates the feature with the given fact client and task provider, without consulting
  /// the dependency system: what a test that builds thousands of features uses.
  ///
  /// - Parameters:
  ///   - store: Where facts shown are kept; `nil` remembers nothing.
  ///   - now: The time a fact is recorded as seen.
  ///   - historyLimit: The most facts ``history`` keeps; by default ``historyLimit``.
  package init(
    count: Int = 0, kind: FactKind = .trivia,
    numberFact: NumberFactClient, taskProvider: any TaskProvider,
    store: FactStore? = nil, now: @escaping @Sendable () -> Date = { Date() },
    historyLimit: Int = NumberFactFeature.historyLimit
  ) {
    self.numberFact = numberFact
    self.taskProvider = taskProvider
    self.store = store
    self.now = now
    self.seen = FactHistory(limit: historyLimit)
    self.state = State(count: count, kind: kind)
  }

  /// Where the fact on screen is in ``history``, when it is one of its entries.
  package var historyPosition: HistoryPosition? { seen.position }

  /// Adds one to ``State/count``, stopping at `Int.max`.
  ///
  /// A change clears the fact and the error and cancels the request in flight, which was
  /// about the old number. At `Int.max` nothing changes: the fact still describes the count.
  package func incrementButtonTapped() {
    let (next, overflow) = state.count.addingReportingOverflow(1)
    guard !overflow else { return }
    setCount(next)
  }

  /// Subtracts one from ``State/count``, stopping at `Int.min`.
  ///
  /// A change clears the fact and the error and cancels the request in flight. At `Int.min`
  /// nothing changes.
  package func decrementButtonTapped() {
    let (next, overflow) = state.count.subtractingReportingOverflow(1)
    guard !overflow else { return }
    setCount(next)
  }

  /// Asks for a fact about the current count and kind, and returns when that request ends.
  ///
  /// It cancels the request in flight, clears the fact and the error, and sets
  /// ``State/isLoading``. When this request ends, and only if it is still the latest, it sets the
  /// fact or the error and clears ``State/isLoading``. Cancelling the calling task cancels the
  /// request.
  package func getFactButtonTapped() async {
    await awaitRequest(requestFact())
  }

  /// Starts what ``getFactButtonTapped()`` does and returns at once, with ``State/isLoading`` set:
  /// for a caller that must not wait, such as a key handler. The task is the request's.
  @discardableResult
  package func requestFact() -> Task<Void, Never> {
    startFactRequest()
  }

  /// Moves the count to `number` (a number typed at the prompt) and asks for its fact;
  /// returns when that request ends.
  package func numberEntered(_ number: Int) async {
    await awaitRequest(requestFact(about: number))
  }

  /// Starts what ``numberEntered(_:)`` does and returns at once.
  @discardableResult
  package func requestFact(about number: Int) -> Task<Void, Never> {
    setCount(number)
    return startFactRequest()
  }

  /// Asks the fact server now, even while a fallback is answering offline, for a fact about
  /// the current count and kind; returns when that request ends.
  package func askNetworkNowTapped() async {
    await awaitRequest(requestFactFromNetwork())
  }

  /// Starts what ``askNetworkNowTapped()`` does and returns at once.
  @discardableResult
  package func requestFactFromNetwork() -> Task<Void, Never> {
    numberFact.askNetworkNow()
    backOffMayHaveEnded()
    return startFactRequest()
  }

  /// How long the fact client will go on answering offline without asking, if it is.
  package var backOffRemaining: Duration? { numberFact.backOffRemaining() }

  /// Reads the client's back-off again: ``State/offlineUntil`` goes when the back-off has ended.
  /// What the render loop calls when the time it showed has come.
  package func backOffMayHaveEnded() {
    guard let remaining = numberFact.backOffRemaining() else {
      state.offlineUntil = nil
      return
    }
    state.offlineUntil = now().addingTimeInterval(remaining.inSeconds)
  }

  /// Asks for a fact about a random number of the current kind; when it comes, the count
  /// becomes that number. Returns when the request ends; only the latest request writes.
  package func randomButtonTapped() async {
    await awaitRequest(requestRandomFact())
  }

  /// Starts what ``randomButtonTapped()`` does and returns at once.
  @discardableResult
  package func requestRandomFact() -> Task<Void, Never> {
    let numberFact = numberFact
    let kind = state.kind
    return startRequest(name: "random \(state.kind.rawValue)") {
      try await numberFact.random(kind, nil)
    }
  }

  /// Adds `delta` to ``State/count`` (PageUp and PageDown move by 100), stopping at `Int.min` and
  /// `Int.max`. A change clears the fact and cancels the request in flight.
  package func countStepped(by delta: Int) {
    let (sum, overflow) = state.count.addingReportingOverflow(delta)
    let next = overflow ? (delta > 0 ? Int.max : Int.min) : sum
    guard next != state.count else { return }
    setCount(next)
  }

  /// Shows the fact before the one on screen in ``history`` (the latest, when none of them
  /// is shown); the count and kind follow it. Cancels the request in flight.
  package func previousFactButtonTapped() {
    show(.previous)
  }

  /// Shows the fact after the one on screen in ``history``.
  package func nextFactButtonTapped() {
    show(.next)
  }

  /// Shows the oldest fact in ``history``.
  package func oldestFactButtonTapped() {
    show(.oldest)
  }

  /// Shows the newest fact in ``history``.
  package func newestFactButtonTapped() {
    show(.newest)
  }

  private func show(_ step: FactHistory.Step) {
    var moved = seen
    guard let entry = moved.take(step) else { return }
    cancelRequest()
    seen = moved
    state.count = entry.number
    state.kind = entry.kind
    state.fact = entry
    state.errorMessage = nil
  }

  /// Starts a request for the current count and kind, through the task provider.
  @discardableResult
  private func startFactRequest() -> Task<Void, Never> {
    let numberFact = numberFact
    let (number, kind) = (state.count, state.kind)
    // The raw value, not the case interpolated: that formats by reflection, on every tap.
    return startRequest(name: "fact \(number) \(state.kind.rawValue)") {
      try await numberFact.fact(number, kind)
    }
  }

  /// Cancels the request in flight, clears the fact and the error, sets ``State/isLoading`` and
  /// spawns `operation` as the latest request.
  private func startRequest(
    name: String,
    _ operation: nonisolated(nonsending) @escaping @Sendable () async throws -> NumberFact
  ) -> Task<Void, Never> {
    leaveFact()
    lastRequestID += 1
    let id = lastRequestID
    activeRequestID = id
    state.isLoading = true
    // The spawned task does the writes, so once a task provider says the task has finished,
    // its effect on the state is complete: tests can wait on the provider alone. It starts
    // at once, on the main actor: a fact at hand (stored, or computed offline) is in the
    // state before this returns, so no loading frame is drawn for it and no spinner starts.
    let run: @MainActor () async -> Void = {
      let outcome: Result<NumberFact, any Error>
      do {
        outcome = .success(try await operation())
      } catch {
        outcome = .failure(error)
      }
      self.finishRequest(id, outcome)
    }
    let task: Task<Void, Never>
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
      task = taskProvider.immediateTask(name: name) { await run() }
    } else {
      task = taskProvider.task(name: name) { await run() }
    }
    // An immediate task that has already ended is in flight no longer.
    if activeRequestID == id { requestTask = task }
    return task
  }

  /// Awaits `task`; cancelling the caller cancels it.
  private func awaitRequest(_ task: Task<Void, Never>) async {
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// Cancels the request in flight, if any. No error is shown for it.
  package func cancelButtonTapped() {
    cancelRequest()
  }

  /// Moves to the next kind of fact (trivia, math, date, year, then trivia again).
  ///
  /// Clears the fact and the error and cancels the request in flight, which asked for the
  /// old kind. When a fact was on screen or on its way, asks for the new kind's fact about
  /// the same number (spawned through the task provider, not awaited).
  package func nextKindButtonTapped() {
    // A fact on screen, or one on its way, is asked for again in the new kind.
    let wasShowingFact = state.fact != nil || state.isLoading
    leaveFact()
    state.kind = state.kind.next
    if wasShowingFact { startFactRequest() }
  }

  private func setCount(_ value: Int) {
    leaveFact()
    state.count = value
  }

  /// The person moves away from what is on screen: the request in flight is cancelled, the
  /// fact and the error go, and the screen shows none of the facts seen.
  private func leaveFact() {
    hasMoved = true
    cancelRequest()
    state.fact = nil
    state.errorMessage = nil
    seen.leave()
  }

  /// Ends the latest request from the model's side: its task is cancelled and, because it is
  /// no longer the latest, will write nothing when it ends.
  private func cancelRequest() {
    activeRequestID = nil
    guard let requestTask else { return }
    self.requestTask = nil
    requestTask.cancel()
    state.isLoading = false
  }

  private func finishRequest(_ id: UInt64, _ outcome: Result<NumberFact, any Error>) {
    backOffMayHaveEnded()
    guard activeRequestID == id else { return }
    activeRequestID = nil
    requestTask = nil
    state.isLoading = false
    switch outcome {
    case .success(let value):
      // A random fact decides the number; for the others it is the count already.
      state.count = value.number
      state.fact = value
      seen.append(value)
      remember(value)
    case .failure(let error):
      // A cancelled caller ends the request quietly, whatever its client threw for it.
      if error is CancellationError || Task.isCancelled { return }
      state.errorMessage = NumberFactError.message(for: error)
    }
  }
}

extension NumberFactFeature {
  /// Everything the feature shows: the feature's state, and a snapshot of it.
  package struct State: Hashable, Sendable {
    /// The number facts are asked about.
    package var count: Int
    /// The kind of fact the next request asks for.
    package var kind: FactKind
    /// The fact about `count`, if the latest request succeeded.
    package var fact: NumberFact?
    /// Whether a request is in flight.
    package var isLoading: Bool
    /// Why the latest request failed.
    package var errorMessage: String?
    /// Why the store could not be used.
    package var storeMessage: String?
    /// Until when facts come offline without asking the server.
    package var offlineUntil: Date?

    /// Creates a snapshot; the defaults are those of a new feature.
    package init(
      count: Int = 0, kind: FactKind = .trivia, fact: NumberFact? = nil,
      isLoading: Bool = false, errorMessage: String? = nil, storeMessage: String? = nil,
      offlineUntil: Date? = nil
    ) {
      self.count = count
      self.kind = kind
      self.fact = fact
      self.isLoading = isLoading
      self.errorMessage = errorMessage
      self.storeMessage = storeMessage
      self.offlineUntil = offlineUntil
    }
  }
}
