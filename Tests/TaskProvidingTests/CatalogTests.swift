import ConcurrencyBugCatalog
import SuiteSupport
import TaskProvidingTesting
import Testing

/// Every bug of the catalog is found, by a bounded exhaustive search and by PCT within 100
/// schedules, and replays from its string; every fixed twin passes both.
///
/// An exploration holds the main actor while it runs. Each test here goes through the
/// catalog one exploration at a time, each in a turn of its own on the main actor, so the
/// suite's other main-actor tests get their turns in between.
///
/// No scenario of the catalog sleeps or waits for another thread, so a schedule with nothing
/// left to run is stuck at once: `outsideWait` is short.
@Suite struct CatalogTests {
  static let outsideWait = Duration.milliseconds(20)

  @Test func exhaustiveSearchFindsEachBugAndItReplays() async throws {
    for entry in CatalogEntry.all {
      let found = try #require(await Self.findBug(entry, with: .exhaustive()), "\(entry)")
      let replayed = await MainActorTurns.take {
        var replayed: ExplorationReport?
        withKnownIssue {
          replayed = explore(
            .exhaustive(), replay: found.replay, outsideWait: Self.outsideWait, entry.bug)
        } matching: {
          $0.description.contains(found.replay)
        }
        return replayed
      }
      #expect(replayed?.failure?.reason == found.reason, "\(entry)")
      #expect(replayed?.failure?.steps == found.steps, "\(entry)")
    }
  }

  @Test func pctFindsEachBugWithinAHundredSchedules() async throws {
    for entry in CatalogEntry.all {
      for seed in UInt64(1)...5 {
        let found = await Self.findBug(entry, with: .pct(seed: seed, schedules: 100))
        #expect(found != nil, "PCT with seed \(seed) missed: \(entry)")
      }
    }
  }

  @Test func eachFixedTwinPassesEverySchedule() async {
    for entry in CatalogEntry.all {
      let exhaustive = await MainActorTurns.take {
        explore(.exhaustive(), outsideWait: Self.outsideWait, entry.fixed)
      }
      #expect(exhaustive.failure == nil, "\(entry)")
      // Every schedule, unless there are more than the default limit.
      #expect(exhaustive.coversEverySchedule || exhaustive.schedules == 10_000, "\(entry)")
      for seed in UInt64(1)...5 {
        let pct = await MainActorTurns.take {
          explore(.pct(seed: seed, schedules: 100), outsideWait: Self.outsideWait, entry.fixed)
        }
        #expect(pct.failure == nil, "\(entry), PCT seed \(seed)")
      }
    }
  }

  /// A task with no name is named by the line that spawned it, in the catalog's own source,
  /// in a plain build and under ThreadSanitizer, whose interceptor of the C library's
  /// `backtrace` is the innermost frame of every capture.
  @Test func anUnnamedTaskIsNamedByTheLineThatSpawnedIt() async throws {
    var places: [Substring] = []
    for entry in CatalogEntry.all {
      guard let found = await Self.findBug(entry, with: .exhaustive()) else { continue }
      for step in found.steps {
        for piece in step.components(separatedBy: "spawned at ").dropFirst() {
          places.append(piece.prefix { $0 != " " && $0 != ")" && $0 != "," })
        }
      }
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
    await MainActorTurns.take {
      var report: ExplorationReport?
      withKnownIssue("\(entry.summary)") {
        report = explore(strategy, outsideWait: outsideWait, entry.bug)
      } matching: {
        $0.description.contains("Exploration (")
      }
      return report?.failure
    }
  }
}
