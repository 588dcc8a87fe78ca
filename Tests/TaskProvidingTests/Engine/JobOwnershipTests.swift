import ConcurrencyExtras
import Dispatch
import SuiteSupport
import TaskProvidingTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A scheduler owns the work its body starts, however it is started, and nothing else: other
/// tests' jobs never run on its thread, and it ends while other work keeps the runtime busy.
@MainActor
@Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(5))), .exploresInProcess)
struct JobOwnershipTests {
  /// The thread a job runs on, to compare with the scheduler's.
  nonisolated static func thread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  actor Counter {
    private(set) var value = 0
    func increment() -> Int {
      value += 1
      return value
    }
  }

  /// Busy work for the runtime: a new task through its enqueue hook, and the caller's resumption
  /// when it ends.
  nonisolated static func enqueueAJob() async {
    await Task.detached {}.value
  }

  @Test func everyWayOfStartingWorkIsTheSchedulers() throws {
    let threads = LockIsolated<[String: UInt]>([:])
    let driver = try withSerialScheduler { () async -> UInt in
      let counter = Counter()
      func note(_ what: String) { threads.withValue { $0[what] = Self.thread() } }
      await Task { note("Task") }.value
      await Task.detached { threads.withValue { $0["Task.detached"] = Self.thread() } }.value
      async let child: Void = threads.withValue { $0["async let"] = Self.thread() }
      await child
      await withTaskGroup(of: Void.self) { group in
        group.addTask { threads.withValue { $0["task group"] = Self.thread() } }
      }
      _ = await counter.increment()
      note("after an actor")
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume() }
      }
      note("resumed from a dispatch queue")
      await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) {
          continuation.resume()
        }
      }
      note("resumed from a timer")
      return Self.thread()
    }
    #expect(threads.value.count == 7)
    for (way, thread) in threads.value {
      #expect(thread == driver, "\(way) ran off the scheduler's thread")
    }
  }

  @Test func anotherTestsWorkNeverRunsOnTheSchedulersThread() async throws {
    let running = LockIsolated(true)
    // The thread driving a scheduler right now, if one is: a thread of the pool between
    // schedulers may run anything.
    let driving = LockIsolated<UInt?>(nil)
    let onDriver = LockIsolated(0)
    // Work from outside any scheduler: round trips that each enqueue a job for the pool.
    let counter = Counter()
    let started = AsyncStream<Void>.makeStream()
    let foreign = Task.detached {
      var trips = 0
      started.continuation.finish()
      while running.value {
        await Self.enqueueAJob()
        _ = await counter.increment()
        if driving.value == Self.thread() { onDriver.withValue { $0 += 1 } }
        trips += 1
      }
      return trips
    }
    // The loop is running before the schedulers start, and until they have all ended.
    for await _ in started.stream {}
    for seed in UInt64(0)..<100 {
      try await withSerialScheduler(order: .random(seed: seed)) {
        driving.setValue(Self.thread())
        await Self.enqueueAJob()
      }
      driving.setValue(nil)
    }
    running.setValue(false)
    _ = await foreign.value
    #expect(onDriver.value == 0)
  }

  @Test func anExplorationEndsWhileOtherWorkKeepsTheRuntimeBusy() async {
    let running = LockIsolated(true)
    let busy = Task.detached {
      while running.value { await Self.enqueueAJob() }
    }
    let report = await explore(.random(seed: 5, schedules: 100)) { exploration in
      let counter = Counter()
      let tasks = (0..<2).map { _ in Task { _ = await counter.increment() } }
      for task in tasks { await task.value }
      let value = await counter.value
      exploration.atEnd("both increments count") { value == 2 }
    }
    running.setValue(false)
    await busy.value
    #expect(report.failure == nil)
    #expect(report.schedules == 100)
  }

  @Test func theSameSeedGivesTheSameScheduleWhileOtherWorkRuns() async {
    let running = LockIsolated(true)
    let busy = Task.detached {
      while running.value { await Self.enqueueAJob() }
    }
    func orders() async -> [String] {
      var seen: [String] = []
      for seed in UInt64(1)...20 {
        let log = LockIsolated<[Int]>([])
        await explore(.random(seed: seed, schedules: 1)) { exploration in
          let tasks = (0..<3).map { number in
            Task.detached { log.withValue { $0.append(number) } }
          }
          for task in tasks { await task.value }
          exploration.atEnd("all three ran") { log.value.count == 3 }
        }
        seen.append("\(log.value)")
      }
      return seen
    }
    let first = await orders()
    let second = await orders()
    running.setValue(false)
    await busy.value
    #expect(first == second)
    #expect(Set(first).count > 1)
  }

  @Test func aNestedSchedulerOwnsItsOwnJobs() throws {
    let inner = try withSerialScheduler { () async -> [Int] in
      let log = LockIsolated<[Int]>([])
      let outerTask = Task { log.withValue { $0.append(0) } }
      let nested = try? await withSerialScheduler { () async -> [Int] in
        let tasks = (1...3).map { number in Task { log.withValue { $0.append(number) } } }
        for task in tasks { await task.value }
        return log.value
      }
      await outerTask.value
      return nested ?? []
    }
    // The inner scheduler ran its own three tasks; the outer task waited for its turn.
    #expect(inner == [1, 2, 3])
  }

  @Test func workLeftRunningGoesBackToTheRuntime() async throws {
    let gate = AsyncStream<Void>.makeStream()
    let left = try await withSerialScheduler { () async -> Task<Int, Never> in
      Task.detached {
        for await _ in gate.stream {}
        return 7
      }
    }
    gate.continuation.finish()
    #expect(try await left.value(timeout: .seconds(5)) == 7)
  }
}
