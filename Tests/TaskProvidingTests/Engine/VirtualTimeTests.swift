import ConcurrencyExtras
import SuiteSupport
import TaskProvidingTesting
import Testing

/// Inside `withSerialScheduler` and `explore`, a sleep of a task the scope owns
/// (a task's sleep in all its forms, a `ContinuousClock` sleep) is a timer of the scope: its
/// time moves to the earliest timer once no job of the scope is ready, so code that sleeps
/// needs no clock injected, and a test of it waits for nothing.
@Suite(.exploresInProcess, .timeLimit(.minutes(ThreadSanitizer.minutes(5))))
struct VirtualTimeTests {
  /// A 300 ms debounce written with a task's plain sleep: typing "s", "sw", "swift" quickly
  /// searches once, for "swift", in every order the scheduler may run its jobs, 10,000 times
  /// (a tenth under ThreadSanitizer). The `async` form gives the main actor back after each
  /// run, so the suite's other main-actor tests wait for one run at most.
  @Test func aDebounceOfPlainSleepsSearchesOnceInEveryOrder() async throws {
    let repetitions = ThreadSanitizer.isActive ? 1_000 : 10_000
    for seed in 0..<repetitions {
      let searches = try? await withSerialScheduler(order: .random(seed: UInt64(seed))) {
        let field = DebouncedSearchField()
        field.type("s")
        field.type("sw")
        field.type("swift")
        await field.settled()
        return field.searches
      }
      if searches != ["swift"] {
        Issue.record("seed \(seed) searched \(searches ?? [])")
        return
      }
    }
  }

  /// The test's own sleep is on the same time: a pause longer than the debounce lets the
  /// first search through.
  @Test @MainActor func aPauseLongerThanTheDebounceSearchesTwice() throws {
    let searches = try withSerialScheduler {
      let field = DebouncedSearchField()
      field.type("s")
      try await Task.sleep(for: .milliseconds(400))  // virtual time
      field.type("sw")
      try await ContinuousClock().sleep(for: .milliseconds(100))  // virtual time
      field.type("swift")
      await field.settled()
      return field.searches
    }
    #expect(searches == ["s", "swift"])
  }

  /// Timers end in deadline order; two with the same deadline end in the order they began.
  @Test @MainActor func sleepsEndInDeadlineOrderAndTiesInTheOrderTheyBegan() throws {
    let ended = try withSerialScheduler {
      let log = LockIsolated<[String]>([])
      let sleepers = [("a", 3), ("b", 1), ("c", 2), ("d", 1)].map { name, seconds in
        Task {
          try? await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)  // virtual time
          log.withValue { $0.append(name) }
        }
      }
      for sleeper in sleepers { await sleeper.value }
      return log.value
    }
    #expect(ended == ["b", "d", "c", "a"])
  }

  /// A cancelled sleep ends at once with `CancellationError`, as it does outside the scope,
  /// before any timer of the scope ends.
  @Test @MainActor func aCancelledSleepEndsAtOnceWithCancellationError() throws {
    let ended = try withSerialScheduler {
      let log = LockIsolated<[String]>([])
      let long = Task {
        do {
          try await Task.sleep(for: .seconds(3_600))  // virtual time
          log.withValue { $0.append("the hour passed") }
        } catch {
          log.withValue { $0.append("\(type(of: error))") }
        }
      }
      let short = Task {
        try? await Task.sleep(for: .seconds(1))  // virtual time
        log.withValue { $0.append("a second passed") }
      }
      long.cancel()
      await long.value
      await short.value
      return log.value
    }
    #expect(ended == ["CancellationError", "a second passed"])
  }

  /// A task the scope does not own sleeps in real time, untouched: two hours of the scope's
  /// virtual time pass, and its one-hour sleep has not ended. It is cancelled, never waited
  /// out.
  @Test @MainActor func aSleepOfATaskTheScopeDoesNotOwnKeepsRealTime() throws {
    let woke = LockIsolated(false)
    let foreign = Task.detached {
      // failure bound: ends early only if the scope took this task's sleep; cancelled, not waited
      try? await Task.sleep(for: .seconds(3_600))  // failure bound
      woke.setValue(true)
    }
    let wokeMeanwhile = try withSerialScheduler {
      try await Task.sleep(for: .seconds(7_200))  // virtual time
      return woke.value
    }
    foreign.cancel()
    #expect(!wokeMeanwhile)
  }
}

// sample: debounced-field
/// A search field that searches 300 ms after the last keystroke, with a plain task sleep.
@MainActor final class DebouncedSearchField {
  private(set) var searches: [String] = []
  private var pending: Task<Void, Never>?

  func type(_ text: String) {
    pending?.cancel()
    pending = Task {
      do {
        try await Task.sleep(for: .milliseconds(300))  // virtual time in a test
      } catch {
        return
      }
      searches.append(text)
    }
  }

  /// Waits for the last keystroke's search, or its cancellation.
  func settled() async {
    await pending?.value
  }
}
// end sample
