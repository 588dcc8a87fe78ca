import ConcurrencyBugCatalog
import SuiteSupport
import TaskProvidingTesting
import Testing

/// A failing schedule is narrated so the race can be read in a few lines: tasks by their names,
/// the scenario's own steps as the scenario's, a task entering an actor while another is
/// suspended inside it, and the default order around the departures folded away.
///
/// The stories here name plain tasks and the functions they resume in, which takes Linux's
/// task-creation hook and symbols; `WithoutLinuxFacilitiesTests` checks what steps say
/// without them.
@Suite(
  .exploresInProcess, .timeLimit(.minutes(ThreadSanitizer.minutes(5))),
  .enabled(
    if: LinuxFacilities.seeTaskCreation && LinuxFacilities.namePlaces,
    "stories that name plain tasks and places need Linux's task-creation hook and symbols"))
struct ScheduleNarrationTests {
  /// The DocC article's image cache, with its views as named plain tasks: each view hops
  /// from actor to actor and enqueues nothing while it runs, yet the story names it, and says
  /// where the first view was suspended when the second came in.
  @Test func aTaskEnteringAnActorWhileAnotherIsSuspendedInsideIsTold() async throws {
    let found = await Self.failure(of: .exhaustive()) { exploration in
      let server = ImageServer()
      let cache = ImageCache(server: server)
      let views = (1...2).map { view in
        Task(name: "view \(view)") { await cache.image("a.png") }
      }
      for view in views { _ = await view.value }
      let downloads = await server.downloads
      exploration.atEnd("a.png is downloaded once") { downloads == ["a.png"] }
    }
    let failure = try #require(found)
    let entry = try #require(failure.steps.first { $0.contains(" enters ") }, "\(failure)")
    #expect(
      entry.hasPrefix(
        "task 'view 2' enters ImageCache while task 'view 1' is suspended in"
          + " ImageCache.image(_:) at ImageCache.swift:"),
      "\(failure)")
    // The views' starts, the first view's entry, the second's, and the rest in one line.
    #expect(failure.steps.count <= 6, "\(failure)")
    #expect(failure.steps.last?.hasSuffix("steps in the default order") == true, "\(failure)")
  }

  /// sourcekit-lsp's stale cache: the reload taken ahead of the lookup's turn on the first
  /// project names that actor, and the invalidation lands while the lookup is suspended
  /// between two hops.
  @Test func anInvalidationBetweenTwoHopsIsToldAsTheRace() async throws {
    let entry = try #require(CatalogEntry.all.first { $0.name.contains("caches a stale answer") })
    let failure = try #require(await Self.failure(of: .exhaustive(), entry.bug))
    #expect(
      failure.steps.contains {
        $0 == "the first project stops handling a.swift (ahead of Project's turn)"
      }, "\(failure)")
    #expect(
      failure.steps.contains {
        $0.hasPrefix(
          "task #1 'reload' enters WorkspaceFinder while task #0 'look up a.swift' is suspended"
            + " in WorkspaceFinder.workspace() at StaleWorkspaceCache.swift:")
      }, "\(failure)")
    #expect(failure.steps.count <= 9, "\(failure)")
  }

  /// A wait in the scenario itself that overtakes the task scheduling the work it waits
  /// for: the scenario's own steps are narrated, named as the scenario.
  @Test func theScenariosOwnStepsAreNamedAsTheScenario() async throws {
    let found = await Self.failure(of: .exhaustive()) { exploration in
      let graph = Graph()
      Task.detached(name: "schedule the load") { await graph.scheduleLoad() }
      await graph.waitUntilLoaded()
      let loaded = await graph.isLoaded
      exploration.atEnd("the scenario sees the graph loaded") { loaded }
    }
    let failure = try #require(found)
    // In the default order the scenario's wait reaches the graph first: its step is the race.
    let wait = try #require(
      failure.steps.firstIndex {
        $0.hasPrefix(
          "the scenario resumes in Graph.waitUntilLoaded() at ScheduleNarrationTests.swift:")
      }, "\(failure)")
    #expect(
      !failure.steps[..<wait].contains { $0.contains("'schedule the load' resumes") },
      "\(failure)")
    #expect(
      failure.steps[wait...].contains {
        $0.hasPrefix("the scenario resumes in a closure in")
          && $0.contains("ScheduleNarrationTests.swift:")
      }, "\(failure)")
  }

  /// A story with no departure and no reentrancy is the default order itself: nothing is
  /// folded away.
  @Test func aScheduleInTheDefaultOrderIsToldWhole() async throws {
    let found = await Self.failure(of: .exhaustive()) { exploration in
      let counter = Tally()
      let first = Task(name: "first") { await counter.add() }
      let second = Task(name: "second") { await counter.add() }
      _ = await (first.value, second.value)
      let total = await counter.total
      exploration.atEnd("the counter ends at 3") { total == 3 }
    }
    let failure = try #require(found)
    #expect(!failure.steps.contains { $0.contains("default order") }, "\(failure)")
    #expect(failure.steps.contains { $0 == "task 'first' starts" }, "\(failure)")
    #expect(failure.steps.contains { $0.hasPrefix("task 'second' resumes in") }, "\(failure)")
  }

  static func failure(
    of strategy: ExplorationStrategy,
    _ scenario: @escaping @MainActor @Sendable (Exploration) async throws -> Void
  ) async -> ExplorationFailure? {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(strategy, outsideWait: .milliseconds(20), scenario)
    }
    return report?.failure
  }
}

private actor Graph {
  private(set) var isLoaded = false
  private var loading: Task<Void, Never>?

  func scheduleLoad() {
    loading = Task { self.isLoaded = true }
  }

  func waitUntilLoaded() async {
    await loading?.value
  }
}

private actor Tally {
  private(set) var total = 0

  func add() { total += 1 }
}
