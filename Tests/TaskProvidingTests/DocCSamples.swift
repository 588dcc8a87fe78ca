// The code samples of the toolkit's DocC articles (Sources/*/*.docc), between
// `// sample: NAME` and `// end sample`, so each is compiled and run; DocSampleTests checks
// that the articles quote them exactly.

import ConcurrencyBugCatalog
import ConcurrencyExtras
import Dependencies
import Observation
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

// sample: observable-model
@MainActor @Observable
final class SearchModel {
  private(set) var results: [String] = []
  private(set) var isSearching = false

  // Observation would track the wrapper's storage; the provider is not state.
  @ObservationIgnored @Dependency(\.taskProvider) private var taskProvider
  @ObservationIgnored private let search: @Sendable (String) async throws -> [String]
  @ObservationIgnored private var current: Task<Void, Never>?

  init(search: @escaping @Sendable (String) async throws -> [String]) {
    self.search = search
  }

  func queryChanged(_ query: String) {
    current?.cancel()
    isSearching = true
    current = taskProvider.task(name: "search \(query)") {
      let found = try? await self.search(query)
      guard !Task.isCancelled else { return }  // a newer query owns the screen
      self.results = found ?? []
      self.isSearching = false
    }
  }
}
// end sample

// sample: observable-test
@MainActor @Suite(.recordingTaskProvider)
struct SearchModelTests {
  @Test func aStaleAnswerNeverReplacesANewerOne() async throws {
    // `.ignore`: the first search answers even after it was cancelled, as a slow server may.
    let search = ControlledFunction<String, [String]>("search", cancellation: .ignore)
    let model = SearchModel(search: search.function)

    model.queryChanged("sw")
    let first = try await search.nextCall()
    model.queryChanged("swift")
    let second = try await search.nextCall()

    second.answer(["Swift"])
    first.answer(["Swahili"])  // late, and stale
    try await RecordingTaskProvider.current.waitForAll()
    #expect(model.results == ["Swift"])
    #expect(!model.isSearching)
  }
}
// end sample

// sample: sendable-service
final class Prefetcher: Sendable {
  // A `Sendable` class cannot hold the `@Dependency` wrapper (it is mutable storage), so
  // resolve it once, in `init`, into a constant.
  private let taskProvider: any TaskProvider
  private let fetch: @Sendable (String) async -> Void
  let fetched = LockIsolated<Set<String>>([])

  init(fetch: @escaping @Sendable (String) async -> Void) {
    @Dependency(\.taskProvider) var taskProvider
    self.taskProvider = taskProvider
    self.fetch = fetch
  }

  func prefetch(_ keys: [String]) {
    for key in keys {
      taskProvider.detachedTask(name: "prefetch \(key)", priority: .background) {
        await self.fetch(key)
        _ = self.fetched.withValue { $0.insert(key) }
      }
    }
  }
}
// end sample

// sample: sendable-test
@Test(.recordingTaskProvider)
func prefetchesEveryKey() async throws {
  let prefetcher = Prefetcher(fetch: { _ in })
  prefetcher.prefetch(["a", "b", "c"])
  try await RecordingTaskProvider.current.waitForAll()
  #expect(prefetcher.fetched.value == ["a", "b", "c"])
  #expect(RecordingTaskProvider.current.records.allSatisfy { $0.kind == .detached })
}
// end sample

// sample: plain-model
@MainActor
final class Autosave {
  private let taskProvider: any TaskProvider
  private let save: @Sendable (String) async -> Void
  private(set) var saved: [String] = []

  // Production code passes nothing; tests pass a testing provider.
  init(
    taskProvider: any TaskProvider = LiveTaskProvider(),
    save: @escaping @Sendable (String) async -> Void
  ) {
    self.taskProvider = taskProvider
    self.save = save
  }

  func textChanged(_ text: String) {
    taskProvider.task(name: "save") {
      await self.save(text)
      self.saved.append(text)
    }
  }
}
// end sample

// sample: plain-test
@MainActor @Test(.manualTaskProvider)
func savesOnlyWhenItsTaskRuns() async {
  let provider = ManualTaskProvider.current
  let autosave = Autosave(taskProvider: provider, save: { _ in })
  autosave.textChanged("draft")
  #expect(autosave.saved.isEmpty)  // held
  await provider.runNext()
  #expect(autosave.saved == ["draft"])
}
// end sample

// sample: migration-before
@MainActor
final class ProfileLoaderBefore {
  private(set) var name: String?
  let load: @Sendable () async -> String

  init(load: @escaping @Sendable () async -> String) { self.load = load }

  func appeared() {
    Task { self.name = await self.load() }
  }
}
// end sample

// sample: migration-after
@MainActor
final class ProfileLoader {
  @Dependency(\.taskProvider) private var taskProvider
  private(set) var name: String?
  let load: @Sendable () async -> String

  init(load: @escaping @Sendable () async -> String) { self.load = load }

  func appeared() {
    taskProvider.task(name: "load profile") { self.name = await self.load() }
  }
}
// end sample

@MainActor @Suite(.recordingTaskProvider)
struct MigrationSamples {
  // sample: migration-test
  @Test func showsTheNameOnceLoaded() async throws {
    let loader = ProfileLoader(load: { "Ada" })
    loader.appeared()
    try await RecordingTaskProvider.current.waitForAll()
    #expect(loader.name == "Ada")
  }
  // end sample

  // sample: controlled-function
  @Test func showsLoadingUntilTheServerAnswers() async throws {
    let load = ControlledFunction<Void, String>("profile load")
    let loader = ProfileLoader(load: { (try? await load.function(())) ?? "" })
    loader.appeared()

    let call = try await load.nextCall()  // the loader is waiting for the server
    #expect(loader.name == nil)
    call.answer("Ada")
    try await RecordingTaskProvider.current.waitForAll()
    #expect(loader.name == "Ada")
  }
  // end sample

  // sample: wait-until
  @Test func namesAppearWithoutReachingTheTask() async throws {
    let model = SearchModel(search: { query in [query.uppercased()] })
    model.queryChanged("swift")
    try await waitUntil(model) { !$0.isSearching }
    #expect(model.results == ["SWIFT"])
  }
  // end sample

  // sample: wait-for-one
  @Test func waitsForOneSearchOnly() async throws {
    let search = ControlledFunction<String, [String]>("search")
    let model = SearchModel(search: search.function)
    model.queryChanged("swift")
    let call = try await search.nextCall()
    call.answer(["Swift"])
    let provider = RecordingTaskProvider.current
    try await provider.waitFor(provider.records[0])
    #expect(model.results == ["Swift"])
  }
  // end sample
}

@MainActor @Suite(.manualTaskProvider)
struct ManualSamples {
  // sample: manual-style
  @Test func isSearchingWhileTheSearchIsHeld() async {
    let model = SearchModel(search: { _ in ["Swift"] })
    model.queryChanged("swift")
    #expect(model.isSearching)  // the search is spawned and held
    #expect(model.results.isEmpty)

    await ManualTaskProvider.current.runNext()
    #expect(!model.isSearching)
    #expect(model.results == ["Swift"])
  }
  // end sample
}

// The article "Finding reentrancy bugs": the cache and its fix are the catalog's.
@MainActor @Suite(.mainActorTurn) struct ReentrancySamples {
  // sample: reentrancy-test
  @Test func twoViewsOfOneImageDownloadItOnce() async {
    await withKnownIssue("the cache downloads a.png twice") {
      let report = await explore(.exhaustive()) { exploration in
        let server = ImageServer()
        let cache = ImageCache(server: server)
        let views = (1...2).map { view in
          Task(name: "view \(view) shows a.png") { await cache.image("a.png") }
        }
        for view in views { _ = await view.value }
        let downloads = await server.downloads
        exploration.atEnd("a.png is downloaded once") { downloads == ["a.png"] }
      }
      #expect(report.failure == nil)
    }
  }
  // end sample

  // sample: reentrancy-fixed-test
  @Test func twoViewsOfOneImageShareItsDownload() async {
    let report = await explore(.exhaustive()) { exploration in
      let server = ImageServer()
      let cache = SharedDownloadImageCache(server: server)
      let views = (1...2).map { view in
        Task(name: "view \(view) shows a.png") { await cache.image("a.png") }
      }
      for view in views { _ = await view.value }
      let downloads = await server.downloads
      exploration.atEnd("a.png is downloaded once") { downloads == ["a.png"] }
    }
    #expect(report.failure == nil)
    #expect(report.isComplete)
  }
  // end sample
}

@MainActor @Suite(.recordingTaskProvider)
struct ReportingFailureSamples {
  // sample: caught-timeout
  @Test func aStuckUploadIsNamed() async throws {
    let upload = ControlledFunction<String, Void>("upload")
    let uploader = Uploader(upload: { try? await upload.function($0) })
    uploader.uploadButtonTapped("a.txt")  // its upload waits for an answer
    do {
      try await RecordingTaskProvider.current.waitForAll(timeout: .milliseconds(300))
      Issue.record("the upload finished without an answer")
    } catch let error as PendingTasksError {
      #expect(error.pending.map(\.name) == ["upload a.txt"])
    }
    try await upload.nextCall().answer(())
  }
  // end sample

  // sample: wait-helper
  func expectUploaded(
    _ file: String, by uploader: Uploader,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async throws {
    try await RecordingTaskProvider.current.waitForAll(
      fileID: fileID, filePath: filePath, line: line, column: column)
    #expect(uploader.uploaded.contains(file))
  }
  // end sample

  @Test func aHelperWaitsWhereItIsCalled() async throws {
    let uploader = Uploader(upload: { _ in })
    uploader.uploadButtonTapped("b.txt")
    try await expectUploaded("b.txt", by: uploader)
  }
}

// sample: logging-provider
struct LoggingTaskProvider: TaskProvider {
  let base: any TaskProvider = LiveTaskProvider()
  let log: @Sendable (String) -> Void

  func spawn<Success: Sendable>(
    _ spawn: TaskSpawn, isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    log("\(spawn.kind) \(spawn.name ?? "unnamed") at \(spawn.location)")
    return base.spawn(spawn, isolation: isolation, operation: operation)
  }

  func spawn<Success: Sendable>(
    _ spawn: TaskSpawn, isolation: isolated (any Actor)?,
    @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    log("\(spawn.kind) \(spawn.name ?? "unnamed") at \(spawn.location)")
    return base.spawn(spawn, isolation: isolation, operation: operation)
  }
}
// end sample

@Test func aLoggingProviderSeesEveryCallForm() async throws {
  let lines = LockIsolated<[String]>([])
  let provider = LoggingTaskProvider(log: { line in lines.withValue { $0.append(line) } })
  await provider.task(name: "a") {}.value
  try await provider.detachedTask(name: "b") { () throws in }.value
  #expect(lines.value.count == 2)
  #expect(lines.value[0].hasPrefix("task a at TaskProvidingTests/DocCSamples.swift:"))
  #expect(lines.value[1].hasPrefix("detached b at TaskProvidingTests/DocCSamples.swift:"))
}
