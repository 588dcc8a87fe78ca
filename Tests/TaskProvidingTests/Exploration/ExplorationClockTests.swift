import ConcurrencyExtras
import Dependencies
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

/// The exploration's clock: time moves only when nothing else can happen, both orders of an
/// answer and a timeout are tried, and deadlines saturate.
@MainActor @Suite(.exploresInProcess) struct ExplorationClockTests {
  /// Where a timed lookup is.
  enum LookupStatus: Equatable {
    case idle, loading, timedOut
    case found(String)
  }

  @Test func theClockMovesOnlyOnceNoJobIsReady() async {
    let report = await explore(.exhaustive()) { exploration in
      let provider = exploration.provider
      let clock = exploration.clock
      var events: [String] = []
      exploration.action("start") {
        provider.task(name: "sleeper") {
          try? await clock.sleep(for: .seconds(1))  // virtual time
          events.append("woke")
        }
        provider.task(name: "other") { events.append("other") }
      }
      exploration.atEnd("the other task ran before time passed") {
        events == ["other", "woke"]
      }
    }
    #expect(report.failure == nil)
    // Both tasks start on the main actor, in the order they were spawned; the clock then has
    // one move.
    #expect(report.coversEverySchedule)
    #expect(report.schedules == 2)
  }

  @Test func anAnswerAndATimeoutAreTriedInBothOrders() async {
    let seen = LockIsolated(Set<[String]>())
    let report = await explore(.exhaustive()) { exploration in
      let provider = exploration.provider
      let clock = exploration.clock
      let fetch = ControlledFunction<Int, Int>("fetch", answers: { $0 })
      var events: [String] = []
      exploration.action("start") {
        provider.task(name: "fetch") {
          if (try? await fetch.function(1)) != nil { events.append("answer") }
        }
        provider.task(name: "timer") {
          let timedOut = (try? await clock.sleep(for: .seconds(5))) != nil  // virtual time
          if timedOut { events.append("timeout") }
        }
      }
      exploration.atEnd("records both") {
        let order = events
        seen.withValue { _ = $0.insert(order) }
        return events.count == 2 && clock.now.offset == .seconds(5)
      }
    }
    #expect(report.failure == nil)
    #expect(seen.value == [["answer", "timeout"], ["timeout", "answer"]])
  }

  @Test func aCancelledSleepThrowsAndAPastDeadlineDoesNotWait() async {
    let report = await explore(.exhaustive()) { exploration in
      let provider = exploration.provider
      let clock = exploration.clock
      var outcome = ""
      exploration.action("start") {
        let sleeper = provider.task(name: "sleeper") {
          do {
            try await clock.sleep(for: .seconds(60))  // virtual time
            outcome = "woke"
          } catch {
            outcome = error is CancellationError ? "cancelled" : "\(error)"
          }
        }
        provider.task(name: "canceller") {
          try? await clock.sleep(until: clock.now, tolerance: nil)  // virtual time, already due
          sleeper.cancel()
        }
      }
      exploration.atEnd("the cancelled sleep threw, or ended first") {
        outcome == "cancelled" || outcome == "woke"
      }
      exploration.atEnd("a cancelled sleep did not move the clock") {
        outcome == "woke" || clock.now.offset == .zero
      }
    }
    #expect(report.failure == nil)
    #expect(report.isComplete)
  }

  @Test func farDeadlinesSaturate() {
    let start = ExplorationClock.Instant(offset: .zero)
    var far = start
    var before = start
    for _ in 0..<20 {
      far = far.advanced(by: .seconds(Int64.max))
      before = before.advanced(by: .seconds(Int64.min))
    }
    #expect(far > start && before < start)
    #expect(far.advanced(by: .seconds(1)) == far)
    #expect(before.advanced(by: .seconds(-1)) == before)
    #expect(far.duration(to: before) < .zero)
    #expect(before.duration(to: far) > .zero)
  }

  @Test func theClockIsTheDependencysClock() async {
    let report = await explore(.exhaustive()) { exploration in
      @Dependency(\.continuousClock) var continuous
      @Dependency(\.suspendingClock) var suspending
      exploration.atEnd("both clocks are the exploration's") {
        continuous as? ExplorationClock === exploration.clock
          && suspending as? ExplorationClock === exploration.clock
      }
    }
    #expect(report.failure == nil)
  }

  @Test func aTimeoutThatChecksItIsStillLoadingPassesEverySchedule() async {
    let report = await explore(.exhaustive()) { exploration in
      let define = ControlledFunction<String, String>("define", answers: { "\($0): a bird" })
      let provider = exploration.provider
      let clock = exploration.clock
      var status = LookupStatus.idle
      var found = false
      exploration.action("look up swift") {
        status = .loading
        let request = provider.task(name: "define swift") {
          guard let definition = try? await define.function("swift"), status == .loading
          else { return }
          status = .found(definition)
        }
        provider.task(name: "time out swift") {
          guard (try? await clock.sleep(for: .seconds(5))) != nil else { return }  // virtual time
          request.cancel()
          if status == .loading { status = .timedOut }
        }
      }
      exploration.invariant("a definition found stays on screen") {
        if case .found = status { found = true }
        return !found || status != .timedOut
      }
      exploration.atEnd("it ends found or timed out") {
        status == .found("swift: a bird") || status == .timedOut
      }
    }
    #expect(report.failure == nil)
    #expect(report.isComplete)
    #expect(report.schedules == 9)
  }
}
