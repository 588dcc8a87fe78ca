// From the field: sourcekit-lsp's "wait for the build graph" returned before the load it
// waits for was even scheduled (https://github.com/swiftlang/sourcekit-lsp/pull/1652): the
// load is scheduled from a plain `Task`, and the indexer's wait can run first and find
// nothing to wait for. Shrunk and retold.

import TaskProvidingTesting

/// Loads the build graph in a task of its own; waiting means awaiting that task.
actor BuildGraph {
  private(set) var isLoaded = false
  private var loading: Task<Void, Never>?

  func scheduleLoad() {
    loading = Task { self.finishLoading() }
  }

  private func finishLoading() { isLoaded = true }

  func waitUntilLoaded() async {
    await loading?.value
  }
}

extension CatalogEntry {
  static let barrierBeforeWork = CatalogEntry(
    name: "a barrier waited on before its work is scheduled (sourcekit-lsp)",
    summary: "the indexer's wait finds no load scheduled yet and indexes an empty graph",
    bug: { exploration in
      let graph = BuildGraph()
      // The load is scheduled from a task of its own, and the indexer starts meanwhile.
      Task.detached { await graph.scheduleLoad() }
      try await index(exploration, graph)
    },
    fixed: { exploration in
      let graph = BuildGraph()
      // The fix: the load is scheduled before the indexer starts.
      await graph.scheduleLoad()
      try await index(exploration, graph)
    })

  @MainActor
  private static func index(_ exploration: Exploration, _ graph: BuildGraph) async throws {
    let sawLoaded = await Task {
      await graph.waitUntilLoaded()
      return await graph.isLoaded
    }.value
    exploration.atEnd("the indexer sees the graph loaded") { sawLoaded }
  }
}
