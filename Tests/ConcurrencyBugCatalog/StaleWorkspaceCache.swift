// From the field: sourcekit-lsp's stale workspace cache
// (https://github.com/swiftlang/sourcekit-lsp/pull/1170). A lookup asks each workspace in
// turn how well it handles a file, then caches the best; an invalidation that lands between
// two of those awaits is overwritten by the stale answer. Shrunk and retold here; written
// as two taps, each spawning its task through the provider.

import LockSupport
import TaskProviding
import TaskProvidingTesting

/// How well one workspace handles a file; it can change while a lookup is under way.
actor Project {
  private(set) var handlesFile: Bool
  init(handlesFile: Bool) { self.handlesFile = handlesFile }
  func stopHandling() { handlesFile = false }
}

/// Finds the workspace for a file and caches it. Flawed: it stores what it found even if
/// the cache was invalidated while it went from workspace to workspace.
actor WorkspaceFinder {
  private let projects: [Project]
  private var cached: Int? {
    didSet { seen.withLock { $0 = cached } }
  }
  /// The cache as it stands, for a check that cannot await.
  nonisolated let seen = Locked<Int?>(nil)

  init(projects: [Project]) { self.projects = projects }

  func workspace() async -> Int? {
    if let cached { return cached }
    var best: Int?
    for (index, project) in projects.enumerated() where await project.handlesFile {
      best = best ?? index
    }
    cached = best
    return best
  }

  func invalidate() { cached = nil }
}

/// The fix: a generation counter; a lookup stores only if no invalidation came meanwhile.
actor GenerationWorkspaceFinder {
  private let projects: [Project]
  private var cached: Int? {
    didSet { seen.withLock { $0 = cached } }
  }
  /// The cache as it stands, for a check that cannot await.
  nonisolated let seen = Locked<Int?>(nil)
  private var generation = 0

  init(projects: [Project]) { self.projects = projects }

  func workspace() async -> Int? {
    if let cached { return cached }
    let started = generation
    var best: Int?
    for (index, project) in projects.enumerated() where await project.handlesFile {
      best = best ?? index
    }
    if generation == started { cached = best }
    return best
  }

  func invalidate() {
    generation += 1
    cached = nil
  }
}

extension CatalogEntry {
  static let staleWorkspaceCache = CatalogEntry(
    name: "a lookup across actors caches a stale answer (sourcekit-lsp)",
    summary: "an invalidation between two workspaces' answers is overwritten by the lookup",
    bug: { exploration in
      let projects = [Project(handlesFile: true), Project(handlesFile: true)]
      let finder = WorkspaceFinder(projects: projects)
      lookUpWhileReloading(
        exploration, projects, find: { _ = await finder.workspace() },
        invalidate: { await finder.invalidate() }, cached: { finder.seen.withLock { $0 } })
    },
    fixed: { exploration in
      let projects = [Project(handlesFile: true), Project(handlesFile: true)]
      let finder = GenerationWorkspaceFinder(projects: projects)
      lookUpWhileReloading(
        exploration, projects, find: { _ = await finder.workspace() },
        invalidate: { await finder.invalidate() }, cached: { finder.seen.withLock { $0 } })
    })

  /// Two taps: open a file (a lookup) and a reload that makes the first project stop
  /// handling it (an invalidation). In the end the second project is the only one that
  /// handles it: the cache must hold that or nothing.
  @MainActor
  private static func lookUpWhileReloading(
    _ exploration: Exploration, _ projects: [Project],
    find: @escaping @Sendable () async -> Void, invalidate: @escaping @Sendable () async -> Void,
    cached: @escaping @Sendable () -> Int?
  ) {
    let provider = exploration.provider
    exploration.action("open a.swift") {
      provider.task(name: "look up a.swift") { await find() }
    }
    exploration.action("the first project stops handling a.swift") {
      provider.task(name: "reload") {
        await projects[0].stopHandling()
        await invalidate()
      }
    }
    exploration.atEnd("the cache holds nothing or the second project") {
      cached() == nil || cached() == 1
    }
  }
}
