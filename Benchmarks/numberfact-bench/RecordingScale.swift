// Section 4: what recording N tasks costs, each size in a process of its own so its peak
// memory is its own (the toolkit's package-benchmark figures share one process).

import Foundation
import TaskProviding
import TaskProvidingTesting

/// Keeps the optimizer from dropping work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// What one recording-scale probe measured, in a fresh process so peak memory is its own.
struct ScaleProbe: Codable, Sendable {
  var tasks: Int
  var children: Int
  var spawnSeconds: Double
  var waitSeconds: Double
  /// One more task spawned and awaited after all the others have finished and stayed
  /// recorded (the median of 100): shows whether old records slow later waits down.
  var laterWaitMicroseconds: Double
  var peakResidentBytes: Int
  var records: Int
}

/// Spawns `tasks` recorded tasks, every tenth spawning a child through the same provider,
/// and waits for all of them.
func runScaleProbe(tasks: Int) async throws -> ScaleProbe {
  let clock = ContinuousClock()
  let provider = RecordingTaskProvider()
  let spawnStart = clock.now
  for index in 0..<tasks {
    provider.task {
      if index % 10 == 0 {
        provider.task { blackHole(index) }
      }
      blackHole(index)
    }
  }
  let waitStart = clock.now
  try await provider.waitForAll(timeout: .seconds(120))
  let waitEnd = clock.now

  // Later waits: the median of 100, because a single one is at the mercy of the scheduler
  // (any of them, at any size, can take a millisecond or more).
  var later: [Double] = []
  for _ in 0..<100 {
    let start = clock.now
    provider.task { blackHole(0) }
    try await provider.waitForAll(timeout: .seconds(10))
    later.append((clock.now - start).seconds * 1e6)
  }

  let peak = peakResidentBytes()  // before `records` copies every record
  let records = provider.records.count
  return ScaleProbe(
    tasks: tasks, children: (tasks + 9) / 10,
    spawnSeconds: (waitStart - spawnStart).seconds,
    waitSeconds: (waitEnd - waitStart).seconds,
    laterWaitMicroseconds: percentile(later, 0.5),
    peakResidentBytes: peak,
    records: records)
}
