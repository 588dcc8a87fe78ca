// From the field: apple/container's `wait()` missed a process's exit
// (https://github.com/apple/container/pull/1289): the exit handler woke the waiters it had,
// cleared the list and awaited before it marked the process stopped; a wait in that gap saw
// it running and registered in a list nobody would look at again. Shrunk and retold.

import TaskProvidingTesting

/// Where a process's record is kept; deleting it is a hop. It counts deletions, so an
/// optimized build keeps the call (and the hop) an empty method would lose.
actor ProcessRecords {
  private(set) var deletions = 0

  func delete() { deletions += 1 }
}

/// Waits for a process's exit code. Flawed: the exit handler suspends between waking the
/// waiters and recording the exit.
actor Sandbox {
  private let records = ProcessRecords()
  private var exitCode: Int?
  private var waiters: [CheckedContinuation<Int, Never>] = []
  /// Whether the exit is recorded before the handler suspends (the fix).
  private let recordsExitFirst: Bool

  init(recordsExitFirst: Bool) { self.recordsExitFirst = recordsExitFirst }

  func wait() async -> Int {
    if let exitCode { return exitCode }
    return await withCheckedContinuation { waiters.append($0) }
  }

  func processExited(code: Int) async {
    if recordsExitFirst { exitCode = code }
    for waiter in waiters { waiter.resume(returning: code) }
    waiters = []
    await records.delete()
    exitCode = code
  }
}

extension CatalogEntry {
  static let exitBeforeWait = CatalogEntry(
    name: "a wait registered while the exit handler is suspended (apple/container)",
    summary: "the wait sees the process running after its waiters were woken, and waits for ever",
    bug: { exploration in try await waitWhileExiting(exploration, Sandbox(recordsExitFirst: false))
    },
    fixed: { exploration in try await waitWhileExiting(exploration, Sandbox(recordsExitFirst: true))
    })

  @MainActor
  private static func waitWhileExiting(_ exploration: Exploration, _ sandbox: Sandbox) async throws
  {
    let exit = Task.detached(name: "exit monitor") { await sandbox.processExited(code: 3) }
    let waiting = Task.detached(name: "container wait") { await sandbox.wait() }
    await exit.value
    let code = await waiting.value
    exploration.atEnd("the wait returns the exit code") { code == 3 }
  }
}
