import TaskProviding
import TaskProvidingTesting
import Testing

/// Every call form users write, spawned from the main actor.
enum SpawnForm: String, CaseIterable, Sendable {
  case task, taskNamed, taskNamedWithPriority, taskWithPriority
  case detached, detachedNamedWithPriority
  case throwingTask, throwingTaskNamed, throwingTaskNamedWithPriority
  case throwingDetached, throwingDetachedNamedWithPriority

  var name: String? {
    switch self {
    case .taskNamed, .taskNamedWithPriority, .detachedNamedWithPriority, .throwingTaskNamed,
      .throwingTaskNamedWithPriority, .throwingDetachedNamedWithPriority:
      "form-\(rawValue)"
    default: nil
    }
  }

  /// High, so that the test awaiting the task cannot escalate it and hide a lost priority.
  var priority: TaskPriority? {
    switch self {
    case .taskNamedWithPriority, .taskWithPriority, .detachedNamedWithPriority,
      .throwingTaskNamedWithPriority, .throwingDetachedNamedWithPriority:
      .high
    default: nil
    }
  }

  var kind: TaskRecord.Kind {
    switch self {
    case .detached, .detachedNamedWithPriority, .throwingDetached,
      .throwingDetachedNamedWithPriority:
      .detached
    default: .task
    }
  }

  /// Spawns through `provider` with this form's syntax; returns the line of the spawn.
  @MainActor
  func spawn(on provider: any TaskProvider) -> Spawned {
    let name = name ?? ""
    switch self {
    case .task: return Spawned(provider.task { Seen.current() })
    case .taskNamed: return Spawned(provider.task(name: name) { Seen.current() })
    case .taskNamedWithPriority:
      return Spawned(provider.task(name: name, priority: .high) { Seen.current() })
    case .taskWithPriority: return Spawned(provider.task(priority: .high) { Seen.current() })
    case .detached: return Spawned(provider.detachedTask { Seen.current() })
    case .detachedNamedWithPriority:
      return Spawned(provider.detachedTask(name: name, priority: .high) { Seen.current() })
    case .throwingTask: return Spawned(provider.task { try Seen.throwing() })
    case .throwingTaskNamed: return Spawned(provider.task(name: name) { try Seen.throwing() })
    case .throwingTaskNamedWithPriority:
      return Spawned(provider.task(name: name, priority: .high) { try Seen.throwing() })
    case .throwingDetached: return Spawned(provider.detachedTask { try Seen.throwing() })
    case .throwingDetachedNamedWithPriority:
      return Spawned(provider.detachedTask(name: name, priority: .high) { try Seen.throwing() })
    }
  }
}

/// A spawned task and the line it was spawned on.
struct Spawned {
  let line: UInt
  let value: () async throws -> Seen

  init(_ task: Task<Seen, Never>, line: UInt = #line) {
    self.line = line
    self.value = { await task.value }
  }

  init(_ task: Task<Seen, any Error>, line: UInt = #line) {
    self.line = line
    self.value = { try await task.value }
  }
}

@MainActor
@Suite struct SpawnFormTests {
  @Test(arguments: ProviderUnderTest.allCases, SpawnForm.allCases)
  func formReachesTheRealTaskAndTheRecord(
    provider kind: ProviderUnderTest, form: SpawnForm
  ) async throws {
    let provider = kind.make()
    let spawned = form.spawn(on: provider)
    try await kind.settle(provider)
    let seen = try await spawned.value()

    #expect(seen.name == form.name)
    if let priority = form.priority {
      #expect(seen.priority == priority)
    }
    #expect(seen.onMainActor == (form.kind == .task))
    #expect(!seen.isCancelled)

    guard let records = kind.records(provider) else { return }
    try #require(records.count == 1)
    let record = records[0]
    #expect(record.kind == form.kind)
    #expect(record.name == form.name)
    #expect(record.priority == form.priority)
    #expect(record.fileID == "TaskProvidingTests/SpawnFormTests.swift")
    #expect(record.line == spawned.line)
    #expect(record.status == .finished)
    #expect(!record.isCancelled)
  }
}
