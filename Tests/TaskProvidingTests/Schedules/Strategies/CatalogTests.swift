import ConcurrencyBugCatalog
import SuiteSupport
import TaskProvidingTesting
import Testing

/// Every bug of the catalog is found, by the exhaustive search with its default arguments and
/// by PCT within 100 schedules, and replays from its string; every fixed twin passes both,
/// the exhaustive search covering its whole space wherever it has fewer than 10,000
/// schedules.
///
/// Each exploration here is the `async` form, which gives the main actor back between
/// schedules, so the tests beside the suite are not kept waiting for the whole catalog.
///
/// No scenario of the catalog sleeps in real time or waits for another thread, so a schedule
/// with nothing left to run is stuck at once: `outsideWait` is short.
@Suite(.exploresInProcess) struct CatalogTests {
  static let outsideWait = Duration.milliseconds(20)

  /// Within how many schedules each strategy finds each bug: the exhaustive search with its
  /// default arguments, and PCT over seeds 1 to 5 (the most any seed took). Measured; a
  /// change that makes a bug harder to find shows here.
  static let foundWithin: [String: (exhaustive: Int, pct: Int)] = [
    "actor reentrancy: an image cache": (1, 2),
    "actor reentrancy: a token refresh": (1, 2),
    "a lost update across an await": (1, 1),
    "check, await, act across actors": (1, 2),
    "task-group results assumed in order": (3, 2),
    "cancellation checked too early": (1, 1),
    "out-of-order writes from separate tasks": (3, 9),
    "an event posted before its subscriber subscribed": (1, 1),
    "a producer/consumer on AsyncStream": (1, 1),
    "two tasks that wait on each other in one order only": (1, 1),
    "a stale response overwrites a newer one": (15, 8),
    "a lookup across actors caches a stale answer (sourcekit-lsp)": (8, 15),
    "check, await other actors, create (sourcekit-lsp)": (1, 4),
    "a cancellation lost at an AsyncStream hand-off (sourcekit-lsp)": (1, 1),
    "a barrier waited on before its work is scheduled (sourcekit-lsp)": (3, 9),
    "a cancellation before the waiter registers (swift-async-algorithms)": (3, 9),
    "a cancel and a store race as two plain tasks (Kingfisher)": (7, 1),
    "a waiter dropped between two actors (DataLoader)": (429, 75),
    "a wait registered while the exit handler is suspended (apple/container)": (1, 13),
    "a watcher's error masks the operation's result in a task group (service-lifecycle)": (1, 2),
    "shutdown waits out a backoff sleep in a task group (grpc-swift)": (1, 1),
    "a cancellation that ends the consumer but not its feeding task (swift-async-algorithms)": (
      1, 8
    ),
    "a cancellation before the first next() never told to the producer (swift-nio)": (3, 9),
    "a cancellation between two next() calls that forgets the feeding task (swift-async-algorithms)":
      (1, 1),
    "a debounce that swallows its cancellation": (1, 1),
    "a retry with back-off that ignores cancellation": (1, 1),
    "a timeout racing its answer": (1, 1),
  ]

  /// Whether the scenarios' plain `Task { }`s get the explorer's executor (Linux); where they
  /// do not (Apple's platforms, and the build CI runs without Linux's facilities), their hops
  /// from an actor may run inline, so some bugs take more schedules, and a twin's space is
  /// not called complete (see `WithoutLinuxFacilitiesTests`).
  static let seesTaskCreation = LinuxFacilities.seeTaskCreation

  /// The catalog as this build explores it. Where task creation is not seen, the DataLoader
  /// entry is explored in the form whose code spawns through a provider: its race is a hop of
  /// a plain `Task.detached` of the code under test, from an actor to the pool and back,
  /// which runs inline there with no choice (`thePlainDataLoaderRaceIsMissedAndSaidSo`).
  static let entries: [CatalogEntry] = CatalogEntry.all.map { entry in
    guard !seesTaskCreation, entry.name == CatalogEntry.waiterDroppedAcrossActors.name else {
      return entry
    }
    return .waiterDroppedAcrossActorsThroughAProvider
  }

  /// Where task creation is not seen, the plain DataLoader race is missed by the exhaustive
  /// search, which says its space is not complete and why; where it is seen, it is found.
  /// Its form spawned through a provider is found in every build.
  @Test func thePlainDataLoaderRaceIsMissedAndSaidSo() async throws {
    let throughAProvider = CatalogEntry.waiterDroppedAcrossActorsThroughAProvider
    #expect(await Self.findBug(throughAProvider, with: .exhaustive()) != nil)
    let entry = CatalogEntry.waiterDroppedAcrossActors
    if Self.seesTaskCreation {
      #expect(await Self.findBug(entry, with: .exhaustive()) != nil)
    } else {
      let report = await explore(.exhaustive(), outsideWait: Self.outsideWait, entry.bug)
      #expect(report.failure == nil)
      #expect(!report.isComplete)
      #expect(report.outsideWork?.contains("ran without the explorer's executor") == true)
    }
  }

  /// Whether `report` of a twin covers its whole space, or says why it cannot.
  static func coversOrSaysWhy(_ report: ExplorationReport) -> Bool {
    LinuxFacilities.coversOrSaysWhy(report)
  }

  @Test func everyEntryStatesWithinHowManySchedulesItIsFound() {
    #expect(Set(Self.foundWithin.keys) == Set(CatalogEntry.all.map(\.name)))
  }

  @Test func exhaustiveSearchFindsEachBugAndItReplays() async throws {
    for entry in Self.entries {
      let found = try #require(await Self.findBug(entry, with: .exhaustive()), "\(entry)")
      // Measured on Linux; elsewhere more hops run inline, and the order of the space changes.
      let within = Self.seesTaskCreation ? Self.foundWithin[entry.name]?.exhaustive ?? 0 : 10_000
      #expect(found.scheduleNumber <= within, "\(entry)")
      var replayed: ExplorationReport?
      await withKnownIssue {
        replayed = await explore(
          .exhaustive(), replay: found.replay, outsideWait: Self.outsideWait, entry.bug)
      } matching: {
        $0.description.contains(found.replay)
      }
      #expect(replayed?.failure?.reason == found.reason, "\(entry)")
      #expect(replayed?.failure?.steps == found.steps, "\(entry)")
    }
  }

  /// PCT's seeds: under the sanitizer, which runs several times slower, fewer.
  static let seeds = ThreadSanitizer.isActive ? UInt64(1)...2 : UInt64(1)...5

  @Test func pctFindsEachBugWithinAHundredSchedules() async throws {
    for entry in Self.entries {
      for seed in Self.seeds {
        let found = await Self.findBug(entry, with: .pct(seed: seed, schedules: 100))
        #expect(found != nil, "PCT with seed \(seed) missed: \(entry)")
        let within = Self.seesTaskCreation ? Self.foundWithin[entry.name]?.pct ?? 0 : 100
        #expect(found?.scheduleNumber ?? .max <= within, "PCT with seed \(seed): \(entry)")
      }
    }
  }

  /// The samplers beside PCT find every bug with every seed within 1,000 schedules, and
  /// partial order sampling within 100 for half the seeds or more (the benchmark's sampling
  /// figure gives each bug's median and worst over twenty seeds).
  @Test func posAndTheUniformWalkFindEachBug() async {
    for entry in Self.entries {
      for sampler in ["POS", "uniform walk"] {
        var found: [Int] = []
        for seed in Self.seeds {
          let strategy: ExplorationStrategy =
            sampler == "POS"
            ? .pos(seed: seed, schedules: 1_000) : .uniformWalk(seed: seed, schedules: 1_000)
          let failure = await Self.findBug(entry, with: strategy)
          #expect(failure != nil, "\(strategy) missed: \(entry)")
          found.append(failure?.scheduleNumber ?? .max)
        }
        if sampler == "POS" {
          #expect(found.sorted()[(found.count - 1) / 2] <= 100, "POS: \(entry), \(found)")
        }
      }
    }
  }

  /// The bugs the reduction that assumes no state is shared but through what the scope sees
  /// misses: each needs a cancellation to land between two jobs that the scope sees nothing
  /// in common between, since a task's cancellation flag is state it cannot see.
  static let missedAssumingNoHiddenSharing: Set<String> = [
    "a cancellation before the waiter registers (swift-async-algorithms)",
    "a cancellation before the first next() never told to the producer (swift-nio)",
  ]

  /// That reduction finds every other bug of the catalog, whose models mostly share state
  /// through actors and `Mutex` boxes, and covers every twin's space in as many schedules as
  /// the default reduction or fewer.
  @Test func theReductionThatAssumesNoHiddenSharingMissesOnlyWhatItSays() async {
    let assumed = ExplorationStrategy.exhaustive(reduction: .assumingNoHiddenSharing)
    var missed = Set<String>()
    var fewer = 0
    for entry in Self.entries {
      if Self.missedAssumingNoHiddenSharing.contains(entry.name) {
        let report = await explore(assumed, outsideWait: Self.outsideWait, entry.bug)
        if report.failure == nil { missed.insert(entry.name) }
      } else if await Self.findBug(entry, with: assumed) == nil {
        missed.insert(entry.name)
      }
      let twin = await explore(assumed, outsideWait: Self.outsideWait, entry.fixed)
      let certain = await explore(
        .exhaustive(limit: ThreadSanitizer.isActive ? 300 : 10_000), outsideWait: Self.outsideWait,
        entry.fixed)
      #expect(twin.failure == nil, "\(entry)")
      #expect(Self.coversOrSaysWhy(twin), "\(entry): \(twin.schedules)")
      #expect(twin.schedules <= certain.schedules || !certain.isComplete, "\(entry)")
      if twin.schedules < certain.schedules { fewer += 1 }
    }
    #expect(missed == Self.missedAssumingNoHiddenSharing)
    #expect(fewer >= Self.entries.count / 2)
  }

  @Test func eachFixedTwinPassesEverySchedule() async {
    for entry in Self.entries {
      // Under the sanitizer, a few hundred schedules of each: that pass looks for data races.
      let limit = ThreadSanitizer.isActive ? 300 : 10_000
      let exhaustive = await explore(
        .exhaustive(limit: limit), outsideWait: Self.outsideWait, entry.fixed)
      #expect(exhaustive.failure == nil, "\(entry)")
      // Every schedule, unless there are more than the limit.
      #expect(Self.coversOrSaysWhy(exhaustive) || exhaustive.schedules == limit, "\(entry)")
      for seed in Self.seeds {
        for strategy in [
          ExplorationStrategy.pct(seed: seed, schedules: 100), .pos(seed: seed, schedules: 100),
          .uniformWalk(seed: seed, schedules: 100),
        ] {
          let sampled = await explore(strategy, outsideWait: Self.outsideWait, entry.fixed)
          #expect(sampled.failure == nil, "\(entry), \(strategy)")
        }
      }
    }
  }

  /// A task with no name is named by the line that spawned it, in the catalog's own source,
  /// in a plain build and under ThreadSanitizer, whose interceptor of the C library's
  /// `backtrace` is the innermost frame of every capture.
  @Test func anUnnamedTaskIsNamedByTheLineThatSpawnedIt() async throws {
    var places: [Substring] = []
    for entry in Self.entries {
      guard let found = await Self.findBug(entry, with: .exhaustive()) else { continue }
      for step in found.steps {
        for piece in step.components(separatedBy: "spawned at ").dropFirst() {
          places.append(piece.prefix { $0 != " " && $0 != ")" && $0 != "," })
        }
      }
    }
    // Where symbols cannot be read, a task with no name is named by its number alone.
    guard LinuxFacilities.namePlaces else {
      #expect(places.isEmpty)
      return
    }
    #expect(!places.isEmpty, "no step names a task by where it was spawned")
    for place in places {
      #expect(place.contains(".swift:") && place.last?.isNumber == true, "\(place)")
    }
  }

  /// The failure `strategy` finds in the flawed code, expected.
  static func findBug(
    _ entry: CatalogEntry, with strategy: ExplorationStrategy
  ) async -> ExplorationFailure? {
    var report: ExplorationReport?
    await withKnownIssue("\(entry.summary)") {
      report = await explore(strategy, outsideWait: outsideWait, entry.bug)
    } matching: {
      $0.description.contains("Exploration (")
    }
    return report?.failure
  }
}
