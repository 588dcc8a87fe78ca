import ConcurrencyExtras
import TaskProviding
import TaskProvidingTesting
import Testing

/// A one-shot signal: tasks wait on it until the test opens it. Waiting ends early if the
/// waiting task is cancelled, so a task stuck on a latch can always be cancelled.
final class Latch: Sendable {
  private let stream: AsyncStream<Never>
  private let continuation: AsyncStream<Never>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  func open() { continuation.finish() }

  /// Only one task may wait on a latch.
  func wait() async {
    for await _ in stream {}
  }
}

/// What a task saw of itself while it ran.
struct Seen: Sendable, Equatable {
  var name: String?
  var priority: TaskPriority
  var onMainActor: Bool
  var isCancelled: Bool

  static func current(_ isolation: isolated (any Actor)? = #isolation) -> Seen {
    Seen(
      name: Task.name,
      priority: Task.currentPriority,
      onMainActor: isolation === MainActor.shared,
      isCancelled: Task.isCancelled)
  }

  /// The same, from a throwing operation (it throws if the task was cancelled).
  static func throwing(_ isolation: isolated (any Actor)? = #isolation) throws -> Seen {
    try Task.checkCancellation()
    return current(isolation)
  }
}

/// The providers every spawn form is checked against, with how to make their tasks finish.
enum ProviderUnderTest: String, CaseIterable, Sendable {
  case live, recording, manual

  func make() -> any TaskProvider {
    switch self {
    case .live: LiveTaskProvider()
    case .recording: RecordingTaskProvider()
    case .manual: ManualTaskProvider()
    }
  }

  /// Lets every spawned task run to the end.
  func settle(_ provider: any TaskProvider) async throws {
    switch provider {
    case let provider as RecordingTaskProvider: try await provider.waitForAll()
    case let provider as ManualTaskProvider: await provider.runAll()
    default: break
    }
  }

  func records(_ provider: any TaskProvider) -> [TaskRecord]? {
    switch provider {
    case let provider as RecordingTaskProvider: provider.records
    case let provider as ManualTaskProvider: provider.records
    default: nil
    }
  }
}
