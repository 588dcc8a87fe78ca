import ConcurrencyExtras
import TaskProviding
import TaskProvidingTesting
import Testing

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
