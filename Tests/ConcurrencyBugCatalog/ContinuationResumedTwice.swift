// A request's continuation resumed by both its response and its timeout. Each looks the
// request up, awaits its log entry, then resumes it and takes it out of the table; when the
// timeout fires while the response is being logged, both resume the same continuation and
// the runtime traps ("SWIFT TASK CONTINUATION MISUSE"). The MCP Swift SDK shipped a request
// table that could resume a continuation twice and fixed it
// (https://github.com/modelcontextprotocol/swift-sdk/pull/113); the fix here takes the
// request out of the table before anything else, so only one path finds it.

import TaskProvidingTesting

/// Requests waiting for their outcome, by id.
actor RequestTable {
  private var waiting: [Int: CheckedContinuation<String, Never>] = [:]
  /// Whether a path takes the request out before it awaits anything (the fix).
  private let takesFirst: Bool
  private let log: @Sendable (String) async throws -> Void

  init(takesFirst: Bool, log: @escaping @Sendable (String) async throws -> Void) {
    self.takesFirst = takesFirst
    self.log = log
  }

  /// Sends request `id` and waits for its response, or for its timeout.
  func send(_ id: Int) async -> String {
    await withCheckedContinuation { continuation in
      waiting[id] = continuation
      Task(name: "response") { await self.complete(id, with: "answer") }
      Task(name: "timeout") {
        try? await Task.sleep(for: .seconds(5))  // virtual time
        await self.complete(id, with: "timed out")
      }
    }
  }

  private func complete(_ id: Int, with outcome: String) async {
    guard let continuation = takesFirst ? waiting.removeValue(forKey: id) : waiting[id] else {
      return
    }
    try? await log(outcome)
    continuation.resume(returning: outcome)
    waiting[id] = nil
  }
}

extension CatalogEntry {
  public static let continuationResumedTwice = CatalogEntry(
    name: "a continuation resumed by its response and its timeout (MCP Swift SDK)",
    summary: "the timeout fires while the response is logged, and both resume the request",
    bug: { exploration in try await sendOnce(exploration, takesFirst: false) },
    fixed: { exploration in try await sendOnce(exploration, takesFirst: true) })

  @MainActor
  private static func sendOnce(_ exploration: Exploration, takesFirst: Bool) async throws {
    let log = ControlledFunction<String, Void>("log", answers: { _ in })
    let table = RequestTable(takesFirst: takesFirst, log: { try await log.function($0) })
    let outcome = await table.send(1)
    exploration.atEnd("the request ends with its answer or its timeout") {
      outcome == "answer" || outcome == "timed out"
    }
  }
}
