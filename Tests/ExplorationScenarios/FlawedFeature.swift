import NumberFactCore
import Observation
import TaskProviding

/// What an exploration needs of a feature model, so the same scenarios run against the real
/// one and against deliberately flawed copies.
@MainActor package protocol ExplorableFeature: AnyObject {
  var state: NumberFactFeature.State { get }
  func getFactButtonTapped() async
  func incrementButtonTapped()
  func cancelButtonTapped()
  func nextKindButtonTapped()
  func randomButtonTapped() async
  func numberEntered(_ number: Int) async
  func previousFactButtonTapped()
}

extension ExplorableFeature {
  // The flawed copies predate these actions; their scenarios do not use them.
  package func randomButtonTapped() async {}
  package func numberEntered(_ number: Int) async {}
  package func previousFactButtonTapped() {}
}

extension NumberFactFeature: ExplorableFeature {}

/// A copy of `NumberFactFeature`'s request logic with one known flaw switched on: what the
/// explorer must catch without being told the ordering that shows it.
@MainActor @Observable
package final class FlawedFeature: ExplorableFeature {
  package enum Flaw: String, CaseIterable, Sendable {
    /// Point-Free's: a request that ignored its cancellation still writes its answer.
    case staleAnswerWrites
    /// Point-Free's: a superseded request clears `isLoading` for the one that replaced it.
    case supersededRequestClearsLoading
    /// Ours: changing the kind keeps the request for the old kind running.
    case kindChangeKeepsTheRequest
  }

  package private(set) var count: Int
  package private(set) var kind: FactKind
  package private(set) var fact: NumberFact?
  package private(set) var isLoading = false
  /// What the feature's state would hold: how scenarios read either model.
  package var state: NumberFactFeature.State {
    .init(count: count, kind: kind, fact: fact, isLoading: isLoading)
  }

  @ObservationIgnored private let flaw: Flaw
  @ObservationIgnored private let numberFact: NumberFactClient
  @ObservationIgnored private let taskProvider: any TaskProvider
  @ObservationIgnored private var request: (id: UInt64, task: Task<Void, Never>)?
  @ObservationIgnored private var lastRequestID: UInt64 = 0

  package init(
    flaw: Flaw, count: Int = 0, kind: FactKind = .trivia, numberFact: NumberFactClient,
    taskProvider: any TaskProvider
  ) {
    self.flaw = flaw
    self.count = count
    self.kind = kind
    self.numberFact = numberFact
    self.taskProvider = taskProvider
  }

  package func incrementButtonTapped() {
    let (next, overflow) = count.addingReportingOverflow(1)
    guard !overflow else { return }
    cancelRequest()
    count = next
    fact = nil
  }

  package func getFactButtonTapped() async {
    cancelRequest()
    lastRequestID += 1
    let id = lastRequestID
    let (number, kind) = (count, kind)
    isLoading = true
    fact = nil
    let task = taskProvider.task(name: "fact \(number) \(kind)") {
      let outcome: Result<NumberFact, any Error>
      do {
        outcome = .success(try await self.numberFact.fact(number, kind))
      } catch {
        outcome = .failure(error)
      }
      self.finishRequest(id, outcome)
    }
    request = (id, task)
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
  }

  package func cancelButtonTapped() {
    cancelRequest()
  }

  package func nextKindButtonTapped() {
    if flaw != .kindChangeKeepsTheRequest { cancelRequest() }
    kind = kind.next
    fact = nil
  }

  private func cancelRequest() {
    guard let request else { return }
    self.request = nil
    request.task.cancel()
    isLoading = false
  }

  private func finishRequest(_ id: UInt64, _ outcome: Result<NumberFact, any Error>) {
    if flaw == .supersededRequestClearsLoading { isLoading = false }
    guard flaw == .staleAnswerWrites || request?.id == id else { return }
    request = nil
    isLoading = false
    if case .success(let value) = outcome { fact = value }
  }
}
