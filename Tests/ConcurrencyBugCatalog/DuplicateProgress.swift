// From the field: sourcekit-lsp creates two progress indicators
// (https://github.com/swiftlang/sourcekit-lsp/pull/1333). Two events each start a plain
// `Task` that updates the progress; the update awaits other actors before it checks whether
// an indicator exists, so both create one and the first is orphaned. Shrunk and retold.

import TaskProvidingTesting

/// What an index can say about its progress.
actor IndexStatus {
  func pending() -> Int { 3 }
}

/// The editor's side: counts indicators created and ended.
actor Editor {
  private(set) var created = 0
  func createIndicator() -> Int {
    created += 1
    return created
  }
}

/// Shows indexing progress. Flawed: it checks for an indicator only after awaiting the
/// index and the editor, so two updates can both find none.
actor ProgressReporter {
  private let status: IndexStatus
  private let editor: Editor
  private var indicator: Int?

  init(status: IndexStatus, editor: Editor) {
    self.status = status
    self.editor = editor
  }

  func update() async {
    _ = await status.pending()
    if indicator == nil { indicator = await editor.createIndicator() }
  }
}

/// The fix: the update claims the indicator before its first await.
actor ClaimingProgressReporter {
  private let status: IndexStatus
  private let editor: Editor
  private var claimed = false

  init(status: IndexStatus, editor: Editor) {
    self.status = status
    self.editor = editor
  }

  func update() async {
    let mustCreate = !claimed
    claimed = true
    _ = await status.pending()
    if mustCreate { _ = await editor.createIndicator() }
  }
}

extension CatalogEntry {
  static let duplicateProgress = CatalogEntry(
    name: "check, await other actors, create (sourcekit-lsp)",
    summary: "two updates both find no indicator and the editor shows two",
    bug: { exploration in
      let editor = Editor()
      let reporter = ProgressReporter(status: IndexStatus(), editor: editor)
      try await twoEvents(exploration, editor) { await reporter.update() }
    },
    fixed: { exploration in
      let editor = Editor()
      let reporter = ClaimingProgressReporter(status: IndexStatus(), editor: editor)
      try await twoEvents(exploration, editor) { await reporter.update() }
    })

  @MainActor
  private static func twoEvents(
    _ exploration: Exploration, _ editor: Editor, update: @escaping @Sendable () async -> Void
  ) async throws {
    let scheduled = Task { await update() }
    let changed = Task { await update() }
    await scheduled.value
    await changed.value
    let created = await editor.created
    exploration.atEnd("one indicator is created") { created == 1 }
  }
}
