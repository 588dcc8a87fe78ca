// The toolkit's generic costs, each beside its baseline in the same run: spawning through a
// provider against `Task {}`, waiting for a task against a yield loop, recording many tasks,
// and a schedule of an exploration against a plain run of the same tasks.
// `Benchmarks/run check` compares each figure's p90 with Thresholds/.

import Benchmark
import TaskProviding
import TaskProvidingTesting

/// How long the waited-for task sleeps.
let sleep = Duration.milliseconds(10)

// Names have no spaces: the harness writes a threshold file with spaces made underscores
// but looks it up by the name as it is.
let benchmarks: @Sendable () -> Void = {
  // Time on a shared two-core machine varies by a third from run to run, and by more than
  // twice while other work holds both cores, so a time fails the check only once it is five
  // times the stored figure: a guard against a change of kind (a busy wait, a scan of every
  // record), which the exact allocation counts complement.
  let timeTolerance = BenchmarkThresholds(relative: [.p90: 400])
  // Allocations hardly vary: a tenth more fails.
  let countTolerance = BenchmarkThresholds(relative: [.p90: 10])
  // Waiting should cost no CPU at all; the yield loop's baseline costs the whole wait. The
  // kernel charges CPU time in 10 ms ticks, so a wait's p90 is 0 or a tick: a tick fails.
  let waitTolerance = BenchmarkThresholds(absolute: [.p90: 2_000_000])
  // A baseline is the runtime's, not ours: only a tenfold change fails, which says the
  // machine or the toolchain changed and the stored figures must be taken again.
  let baselineTolerance = BenchmarkThresholds(relative: [.p90: 900])
  func baseline(_ configuration: Benchmark.Configuration) -> Benchmark.Configuration {
    var configuration = configuration
    configuration.thresholds = Dictionary(
      uniqueKeysWithValues: configuration.metrics.map { ($0, baselineTolerance) })
    return configuration
  }

  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    timeUnits: .microseconds,
    warmupIterations: 3,
    maxDuration: .seconds(2),
    maxIterations: 200,
    thresholds: [.wallClock: timeTolerance, .mallocCountTotal: countTolerance])

  // Provider overhead: a thousand tasks spawned and awaited one after another, each way.
  let spawns = Benchmark.Configuration(timeUnits: .nanoseconds, scalingFactor: .kilo)
  Benchmark("spawn-and-await-Task{}-baseline", configuration: baseline(spawns)) {
    benchmark in
    var sum = 0
    for index in benchmark.scaledIterations {
      sum &+= await Task { index &* 3 }.value
    }
    blackHole(sum)
  }
  Benchmark("spawn-and-await-LiveTaskProvider", configuration: spawns) { benchmark in
    // Held as the app holds it: an existential from the dependency system.
    let provider: any TaskProvider = LiveTaskProvider()
    var sum = 0
    for index in benchmark.scaledIterations {
      sum &+= await provider.task { index &* 3 }.value
    }
    blackHole(sum)
  }
  Benchmark("spawn-and-await-RecordingTaskProvider", configuration: spawns) { benchmark in
    // A provider per run, as a test has: records from earlier runs would grow without end.
    let provider = RecordingTaskProvider()
    benchmark.startMeasurement()
    var sum = 0
    for index in benchmark.scaledIterations {
      sum &+= await provider.task { index &* 3 }.value
    }
    benchmark.stopMeasurement()
    blackHole(sum)
  }

  // Waiting: the CPU the process spends while a recorded task sleeps 10 ms and the caller
  // waits for it.
  let waits = Benchmark.Configuration(
    metrics: [.cpuTotal, .wallClock], maxIterations: 100,
    thresholds: [.cpuTotal: waitTolerance, .wallClock: timeTolerance])
  Benchmark("wait-for-a-sleeping-task-waitForAll", configuration: waits) { benchmark in
    let provider = RecordingTaskProvider()
    provider.task { try? await Task.sleep(for: sleep) }
    benchmark.startMeasurement()
    try? await provider.waitForAll(timeout: sleep * 100)
    benchmark.stopMeasurement()
  }
  Benchmark(
    "wait-for-a-sleeping-task-yield-loop-baseline", configuration: baseline(waits)
  ) { benchmark in
    let provider = RecordingTaskProvider()
    provider.task { try? await Task.sleep(for: sleep) }
    benchmark.startMeasurement()
    while provider.pendingCount > 0 { await Task.yield() }
    benchmark.stopMeasurement()
  }

  // Recording scale: ten thousand recorded tasks, every tenth spawning a child through the
  // same provider, then one wait for all of them.
  // Peak memory is not among the figures: iterations share a process, so one run's peak
  // depends on what earlier ones left to the allocator. numberfact-bench's recording scale section measures
  // it per size, each in a process of its own.
  let scale = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], maxIterations: 50,
    thresholds: [.wallClock: timeTolerance, .mallocCountTotal: countTolerance])
  for (tasks, iterations) in [(10_000, 50), (100_000, 10)] {
    Benchmark(
      "record-\(tasks)-tasks-and-wait-for-all",
      configuration: .init(
        metrics: scale.metrics, maxIterations: iterations, thresholds: scale.thresholds)
    ) { _ in
      await recordAndWait(tasks)
    }
  }

  // A later wait: one more task spawned and awaited once 100,000 finished ones stay
  // recorded, beside the same with none recorded: whether a wait slows with the records kept.
  let later = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds, maxIterations: 20_000,
    thresholds: [.wallClock: timeTolerance, .mallocCountTotal: countTolerance])
  Benchmark(
    "wait-for-one-more-after-100000-recorded", configuration: later,
    closure: { (_: Benchmark, provider: RecordingTaskProvider) in
      provider.task { blackHole(0) }
      try? await provider.waitForAll(timeout: .seconds(10))
    },
    setup: {
      let provider = RecordingTaskProvider()
      for index in 0..<100_000 { provider.task { blackHole(index) } }
      try? await provider.waitForAll(timeout: .seconds(120))
      return provider
    })
  Benchmark(
    "wait-for-one-more-with-none-recorded", configuration: later,
    closure: { (_: Benchmark, provider: RecordingTaskProvider) in
      provider.task { blackHole(0) }
      try? await provider.waitForAll(timeout: .seconds(10))
    },
    setup: { RecordingTaskProvider() })
  Benchmark(
    "spawn-10000-Task{}-and-await-baseline", configuration: baseline(scale)
  ) { benchmark in
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(11_000)
    for index in 0..<10_000 {
      tasks.append(
        Task {
          if index % 10 == 0 { blackHole(await Task { index }.value) }
          blackHole(index)
        })
    }
    for task in tasks { await task.value }
  }

  // A schedule's cost beside a plain run's: two tasks that each await an actor, run a thousand
  // times plainly, and explored under a thousand schedules. A whole suite explored multiplies
  // its cost by its schedules, so a schedule should cost no more than a run.
  let schedules = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], maxIterations: 20,
    thresholds: [.wallClock: timeTolerance, .mallocCountTotal: countTolerance])
  Benchmark(
    "run-two-tasks-awaiting-an-actor-1000-times-baseline", configuration: baseline(schedules)
  ) { _ in
    let provider = LiveTaskProvider()
    for _ in 0..<1_000 { blackHole(await twoTasksAwaitingAnActor(provider)) }
  }
  Benchmark("explore-two-tasks-awaiting-an-actor-1000-schedules", configuration: schedules) {
    _ in
    let report = await explore(.random(seed: 1, schedules: 1_000)) { exploration in
      let count = await twoTasksAwaitingAnActor(exploration.provider)
      exploration.atEnd("both tasks counted") { count == 2 }
    }
    blackHole(report.schedules)
  }
}

/// What the two tasks of the schedule-cost pair await.
actor Tally {
  private(set) var count = 0
  func add() { count += 1 }
}

/// Two tasks spawned through `provider`, each awaiting one actor; returns what they counted.
func twoTasksAwaitingAnActor(_ provider: any TaskProvider) async -> Int {
  let tally = Tally()
  let first = provider.task { await tally.add() }
  let second = provider.task { await tally.add() }
  await first.value
  await second.value
  return await tally.count
}

/// Records `tasks` tasks, every tenth spawning a child through the same provider, and waits
/// for all of them.
func recordAndWait(_ tasks: Int) async {
  let provider = RecordingTaskProvider()
  for index in 0..<tasks {
    provider.task {
      if index % 10 == 0 { provider.task { blackHole(index) } }
      blackHole(index)
    }
  }
  try? await provider.waitForAll(timeout: .seconds(120))
  blackHole(provider.records.count)
}
