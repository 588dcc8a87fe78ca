import ConcurrencyExtras
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The explorer interleaves where the runtime lets another job run, and only there: at a hop
/// from one executor to another, a task's start and a continuation's resumption; never inside
/// a job the runtime runs in one piece (docs/suspension-points.md).
@Suite(.exploresInProcess, .timeLimit(.minutes(ThreadSanitizer.minutes(5))))
struct SuspensionPointTests {
  // MARK: No more

  /// A lock taken before `withUnsafeContinuation` and given back inside its closure, as
  /// swift-async-algorithms' `merge` does: the runtime runs the closure at once on the same
  /// thread, so no other job can find the lock held. Before, the explorer ended the job at the
  /// closure's hop to the pool and found it held in 5 of 11 schedules.
  @Test func noJobRunsBetweenALockAndTheContinuationThatGivesItBack() async {
    for strategy in Self.strategies {
      let report = await explore(strategy) { exploration in
        let gate = HandOffLock()
        let holder = Task.detached { await gate.lockThenSuspend() }
        let prober = Task.detached { gate.probe() }
        await holder.value
        await prober.value
        exploration.atEnd("no task found the lock held") { !gate.foundHeld }
      }
      #expect(report.failure == nil, "\(strategy)")
    }
  }

  /// The same, where the continuation is resumed later by another task: the waiting task's
  /// hop back is a job of its own, but the lock was given back before it.
  @Test func aTaskSuspendedOnTheContinuationHoldsNoLock() async {
    let report = await explore(.exhaustive()) { exploration in
      let gate = HandOffLock()
      let holder = Task.detached { await gate.lockThenWait() }
      let prober = Task.detached {
        gate.probe()
        gate.resumeWaiter()
      }
      await holder.value
      await prober.value
      exploration.atEnd("no task found the lock held") { !gate.foundHeld }
    }
    #expect(report.failure == nil)
    // Where the creation of the plain tasks is not seen, they run without the explorer's
    // executor, and the report says their hops may have escaped it.
    #expect(report.coversEverySchedule == LinuxFacilities.seeTaskCreation)
  }

  /// Two taps of a `@MainActor` model, each spawning through the exploration's provider a
  /// task on the main actor: the main actor starts them in the order they were spawned, so
  /// they log in tap order in every schedule. Before, the provider held each task and the
  /// explorer started the second first, an order the runtime never gives.
  @Test @MainActor func tasksSpawnedOnTheMainActorStartInSpawnOrder() async {
    let report = await explore(.exhaustive()) { exploration in
      let model = TapLog(provider: exploration.provider)
      exploration.action("tap 1") { model.tapped(1) }
      exploration.action("tap 2") { model.tapped(2) }
      exploration.atEnd("the taps are logged in order") { model.log == [1, 2] }
    }
    #expect(report.failure == nil)
    #expect(report.coversEverySchedule)
  }

  /// The same on an actor of the model's own: two tasks it spawns on itself start in the
  /// order it spawned them, as its queue runs them.
  @Test @MainActor func tasksSpawnedOnAnActorStartInSpawnOrder() async {
    let report = await explore(.exhaustive()) { exploration in
      let journal = Journal(provider: exploration.provider)
      exploration.action("note 1 and 2") { Task { await journal.noteTwice() } }
      exploration.atEnd("the notes are in order") { journal.notes.value == [1, 2] }
    }
    #expect(report.failure == nil)
    // The action's plain task: see `aTaskSuspendedOnTheContinuationHoldsNoLock`.
    #expect(report.coversEverySchedule == LinuxFacilities.seeTaskCreation)
  }

  /// An immediate task spawned through the exploration's provider runs at once, up to its
  /// first suspension, inside the action that spawned it, as `Task.immediate` does: each tap
  /// finds its task begun as the spawn returns.
  @Test @MainActor func anImmediateTaskBeginsWithinTheActionThatSpawnsIt() async {
    let report = await ImmediateTaps.exploreTwoTaps()
    #expect(report.failure == nil)
    #expect(LinuxFacilities.coversOrSaysWhy(report))
    #expect(report.schedules > 1)
  }

  /// The same from a test off the main actor that explores several times: each `await
  /// explore` and each turn it gives back reaches the main actor in a new job, which the
  /// runtime takes from the main queue on whichever executor is the main actor's at that
  /// moment (a scope's, if a test beside it has one open). Each step's main-actor code runs
  /// as a job on the scope's executor all the same, so the immediate task begins inside the
  /// action in every schedule of every exploration, as it would on the main actor.
  @Test func anImmediateTaskBeginsWithinItsActionInEveryExplorationOfATestOffTheMainActor()
    async
  {
    for round in 1...4 {
      let report = await ImmediateTaps.exploreTwoTaps()
      #expect(report.failure == nil, "round \(round)")
      #expect(LinuxFacilities.coversOrSaysWhy(report), "round \(round)")
    }
  }

  // MARK: No fewer

  /// A task that goes from one idle actor to another leaves the first before it enters the
  /// second: another task may run on the first in between, as another thread may.
  @Test func aHopFromOneActorToAnotherIsAChoice() async {
    let orders = LockIsolated(Set<[String]>())
    let report = await explore(.exhaustive()) { exploration in
      let log = OrderLog()
      let first = Ledger(name: "first", log: log)
      let second = Ledger(name: "second", log: log)
      let walker = Task.detached { await first.forward(to: second, as: "walker") }
      let visitor = Task.detached { await first.visit(as: "visitor") }
      await walker.value
      await visitor.value
      let entries = await log.entries
      orders.withValue { _ = $0.insert(entries) }
    }
    #expect(report.failure == nil)
    let between: [String] = ["walker@first", "visitor@first", "walker@second"]
    guard LinuxFacilities.seeTaskCreation else {
      // The plain walker prefers no executor: from its idle first actor it enters the idle
      // second at once, on the same thread, so the visitor never comes between, and the
      // report does not call the space complete.
      #expect(!report.coversEverySchedule)
      #expect(!orders.value.contains(between))
      return
    }
    #expect(report.coversEverySchedule)
    // The visitor can come before the walker, between its two actors, or after both.
    #expect(
      orders.value
        == [
          ["visitor@first", "walker@first", "walker@second"], between,
          ["walker@first", "walker@second", "visitor@first"],
        ])
  }

  /// sourcekit-lsp's stale cache, shrunk: a lookup awaits two workspace actors in a loop and
  /// then stores its answer, while an invalidation changes a workspace and clears the cache.
  /// The bug needs the invalidation between two hops of the lookup's loop.
  @Test func aRaceBetweenTwoHopsOfALoopIsFound() async {
    for strategy in [ExplorationStrategy.exhaustive(), .pct(seed: 1, schedules: 200)] {
      var report: ExplorationReport?
      await withKnownIssue {
        report = await explore(strategy) { exploration in
          let workspaces = [Workspace(), Workspace()]
          let cache = SettingsCache(workspaces: workspaces)
          let lookup = Task.detached { _ = await cache.settings() }
          let invalidation = Task.detached {
            await workspaces[0].edit()
            await cache.invalidate()
          }
          await lookup.value
          await invalidation.value
          let cached = await cache.cached
          let current = [await workspaces[0].version, await workspaces[1].version]
          exploration.atEnd("the cache holds nothing or the current settings") {
            cached == nil || cached == current
          }
        }
      } when: {
        LinuxFacilities.seeTaskCreation
      } matching: {
        $0.description.contains("the cache holds nothing or the current settings")
      }
      // Where task creation is not seen, the plain lookup goes from one idle workspace actor
      // to the next at once, and the invalidation never comes between: the bug is missed,
      // and the report does not call the space complete.
      let failure = report?.failure
      #expect((failure != nil) == LinuxFacilities.seeTaskCreation, "\(strategy)")
      if failure == nil { #expect(report?.isComplete == false, "\(strategy)") }
    }
  }

  /// Two taps, each spawning its task through the provider, interleave at every `await`, as
  /// two `Task { }`s started together do: the image cache's double download is found.
  @Test func tapsThatSpawnThroughTheProviderInterleave() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive()) { exploration in
        let server = Downloads()
        let cache = Thumbnails(server: server)
        let provider = exploration.provider
        for view in 1...2 {
          exploration.action("view \(view) shows a.png") {
            provider.task(name: "view \(view)") { _ = await cache.image("a.png") }
          }
        }
        exploration.atEnd("a.png is downloaded once") {
          server.count.withValue { $0 } <= 1
        }
      }
    } matching: {
      $0.description.contains("a.png is downloaded once")
    }
    let failure = report?.failure
    #expect(failure != nil)
  }

  /// A `@MainActor` model's taps, each spawning through the provider a task that calls a
  /// `nonisolated` function and then sends on an actor. The function runs on the pool, where
  /// the second tap's task may get ahead of the first and send first: the server ends up
  /// disagreeing with the model.
  @Test @MainActor func aHopFromTheMainActorToTheGenericExecutorIsAChoice() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive()) { exploration in
        let model = LikeButton(provider: exploration.provider, encode: LikeButton.encodeLogged)
        exploration.action("tap") { model.tapped() }
        exploration.action("tap again") { model.tapped() }
        exploration.atEnd("the server agrees with the button") {
          model.server.liked.withValue { $0 } == model.isLiked
        }
      }
    } matching: {
      $0.description.contains("the server agrees with the button")
    }
    #expect(report?.failure != nil)
    // The function is named where symbols can be read.
    let named = report?.failure?.description.contains("LikeButton.encodeLogged") == true
    #expect(named == LinuxFacilities.namePlaces)
  }

  /// The same taps, where the `nonisolated` function only returns its argument: the compiler
  /// drops its hop to the pool, even at `-Onone`, since nothing in it needs an executor. The
  /// task goes from the main actor straight to the network actor, in the order the taps
  /// spawned, so the runtime cannot reorder the sends, and neither does the explorer.
  @Test @MainActor func aFunctionWhoseHopTheCompilerDropsIsNoChoice() async {
    let report = await explore(.exhaustive()) { exploration in
      let model = LikeButton(provider: exploration.provider, encode: LikeButton.encodeTrivially)
      exploration.action("tap") { model.tapped() }
      exploration.action("tap again") { model.tapped() }
      exploration.atEnd("the server agrees with the button") {
        model.server.liked.withValue { $0 } == model.isLiked
      }
    }
    #expect(report.failure == nil)
    #expect(LinuxFacilities.coversOrSaysWhy(report))
    #expect(report.schedules > 1)
  }

  static let strategies: [ExplorationStrategy] =
    [.exhaustive()]
    + (1...(ThreadSanitizer.isActive ? 3 : 20)).flatMap { seed in
      [ExplorationStrategy.pct(seed: seed, schedules: 50), .random(seed: seed, schedules: 50)]
    }
}

/// A pthread lock handed over to a continuation's closure, the pattern of
/// swift-async-algorithms' `MergeStorage.next()`, and a second task that only tries it.
private final class HandOffLock: @unchecked Sendable {
  // A pthread mutex, not `Synchronization.Mutex`: ThreadSanitizer sees it, and the pattern
  // locks and unlocks it in two places, which a scoped lock cannot.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private struct State {
    var foundHeld = false
    var waiter: UnsafeContinuation<Void, Never>?
    var resumeAsked = false
  }

  private let state = LockIsolated(State())

  init() { pthread_mutex_init(mutex, nil) }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  var foundHeld: Bool { state.withValue { $0.foundHeld } }

  /// Locks, then suspends on a continuation whose closure unlocks and resumes at once.
  nonisolated func lockThenSuspend() async {
    pthread_mutex_lock(mutex)
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      pthread_mutex_unlock(mutex)
      continuation.resume()
    }
  }

  /// Locks, then suspends on a continuation whose closure unlocks and leaves it to
  /// ``resumeWaiter()``.
  nonisolated func lockThenWait() async {
    pthread_mutex_lock(mutex)
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let asked = state.withValue { state -> Bool in
        if !state.resumeAsked { state.waiter = continuation }
        return state.resumeAsked
      }
      pthread_mutex_unlock(mutex)
      if asked { continuation.resume() }
    }
  }

  /// Resumes the waiter, or has it go on at once if it does not wait yet.
  func resumeWaiter() {
    let waiter = state.withValue { state -> UnsafeContinuation<Void, Never>? in
      state.resumeAsked = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Tries the lock without waiting, and notes whether it was held.
  func probe() {
    if pthread_mutex_trylock(mutex) == 0 {
      pthread_mutex_unlock(mutex)
    } else {
      state.withValue { $0.foundHeld = true }
    }
  }
}

/// The order tasks entered actors in.
private actor OrderLog {
  private(set) var entries: [String] = []
  func note(_ entry: String) { entries.append(entry) }
}

/// An actor a task passes through on its way to another.
private actor Ledger {
  let name: String
  let log: OrderLog
  init(name: String, log: OrderLog) {
    self.name = name
    self.log = log
  }

  func forward(to next: Ledger, as who: String) async {
    await log.note("\(who)@\(name)")
    await next.visit(as: who)
  }

  func visit(as who: String) async {
    await log.note("\(who)@\(name)")
  }
}

/// One workspace's settings, by version.
private actor Workspace {
  private(set) var version = 0
  func edit() { version += 1 }
}

/// Settings gathered from every workspace, kept until a workspace changes. Flawed: the lookup
/// stores what it gathered even if an invalidation came while it went from workspace to
/// workspace.
private actor SettingsCache {
  let workspaces: [Workspace]
  private(set) var cached: [Int]?
  init(workspaces: [Workspace]) { self.workspaces = workspaces }

  func settings() async -> [Int] {
    if let cached { return cached }
    var gathered: [Int] = []
    for workspace in workspaces { gathered.append(await workspace.version) }
    cached = gathered
    return gathered
  }

  func invalidate() { cached = nil }
}

/// The network, counting downloads.
private final class Downloads: Sendable {
  let count = LockIsolated(0)
  func download(_ url: String) async -> String {
    count.withValue { $0 += 1 }
    return "pixels of \(url)"
  }
}

/// Apple's image cache: both callers miss before either stores.
private actor Thumbnails {
  let server: Downloads
  private var images: [String: String] = [:]
  init(server: Downloads) { self.server = server }

  func image(_ url: String) async -> String {
    if let image = images[url] { return image }
    let image = await server.download(url)
    images[url] = image
    return image
  }
}

/// The server's side of a like.
private final class LikeServer: Sendable {
  let liked = LockIsolated(false)
  let requests = LockIsolated(0)
}

/// The connection a like goes out on.
private actor LikeConnection {
  func send(_ liked: Bool, to server: LikeServer) { server.liked.withValue { $0 = liked } }
}

/// A like button whose taps each send the new state. Flawed: nothing orders the sends.
@MainActor private final class LikeButton {
  let provider: any TaskProvider
  let server = LikeServer()
  let connection = LikeConnection()
  let encode: @Sendable (Bool, LikeServer) async -> Bool
  private(set) var isLiked = false

  init(provider: any TaskProvider, encode: @escaping @Sendable (Bool, LikeServer) async -> Bool) {
    self.provider = provider
    self.encode = encode
  }

  func tapped() {
    isLiked.toggle()
    let liked = isLiked
    provider.task {
      let body = await self.encode(liked, self.server)
      await self.connection.send(body, to: self.server)
    }
  }

  /// Counts the request before encoding it: a call, so the function keeps its hop.
  nonisolated static func encodeLogged(_ liked: Bool, _ server: LikeServer) async -> Bool {
    server.requests.withValue { $0 += 1 }
    return liked
  }

  /// Only returns its argument.
  nonisolated static func encodeTrivially(_ liked: Bool, _ server: LikeServer) async -> Bool {
    liked
  }
}

/// A model that logs each tap from a task of its own.
@MainActor private final class TapLog {
  let provider: any TaskProvider
  private(set) var log: [Int] = []
  init(provider: any TaskProvider) { self.provider = provider }

  func tapped(_ number: Int) {
    provider.task { self.log.append(number) }
  }
}

/// A model whose taps each start an immediate task that hops to an actor.
@MainActor private final class ImmediateTaps {
  let provider: any TaskProvider
  let counter = OrderLog()
  private(set) var taps = 0
  private(set) var begun = 0
  private(set) var ended = 0
  /// Whether every tap's task had begun by the time `tapped()` returned.
  private(set) var everyTaskBeganInsideItsTap = true
  init(provider: any TaskProvider) { self.provider = provider }

  func tapped() {
    taps += 1
    provider.immediateTask {
      self.begun += 1
      await self.counter.note("tap")
      self.ended += 1
    }
    if begun != taps { everyTaskBeganInsideItsTap = false }
  }

  /// Every order of two taps: each tap's task begins inside the tap and ends by the end.
  static func exploreTwoTaps() async -> ExplorationReport {
    await explore(.exhaustive()) { exploration in
      let model = ImmediateTaps(provider: exploration.provider)
      exploration.action("tap 1") { model.tapped() }
      exploration.action("tap 2") { model.tapped() }
      exploration.invariant("every tap's task began inside the tap") {
        model.everyTaskBeganInsideItsTap
      }
      exploration.atEnd("every tap's task has ended") { model.ended == 2 }
    }
  }
}

/// An actor that notes from tasks it spawns on itself.
private actor Journal {
  let provider: any TaskProvider
  let notes = LockIsolated<[Int]>([])
  init(provider: any TaskProvider) { self.provider = provider }

  func noteTwice() {
    for number in 1...2 {
      provider.task { self.note(number) }
    }
  }

  private func note(_ number: Int) { notes.withValue { $0.append(number) } }
}
