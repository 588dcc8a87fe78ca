// what recording N tasks costs, each size in a process of its own so its peak
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

extension Report {
  func scaleSection() -> [String] {
    guard !scale.isEmpty else { return [] }
    var lines = [
      "", "## Recording scale", "",
      "A `RecordingTaskProvider` records N tasks, every tenth of which spawns a child "
        + "through it, then `waitForAll()`. Each size runs in a fresh process, so the peak "
        + "resident memory is its own; it includes the runtime and the tasks still alive "
        + "while the loop spawns. *Later wait* is one more task spawned and awaited after all of them have "
        + "finished and stay recorded: the median of 100 such waits.", "",
      "| Tasks (+ children) | Spawn s | `waitForAll()` s | µs per task, total | Later wait µs "
        + "| Peak RSS MB | Bytes per task above an empty probe |",
      "|---|---:|---:|---:|---:|---:|---:|",
    ]
    let baseline = scaleBaseline?.median ?? 0
    for row in scale {
      lines.append(
        "| \(row.tasks.formatted()) (+ \(((row.tasks + 9) / 10).formatted())) "
          + "| \(row.spawn.formatted(3)) | \(row.wait.formatted(3)) "
          + "| \(row.microsecondsPerTask.formatted(2)) | \(row.laterWait.formatted(1)) "
          + "| \(row.peak.formatted(1)) | \(row.bytesPerTask(above: baseline).formatted(0)) |")
    }
    if let scaleBaseline {
      lines += [
        "",
        "An empty probe peaks at \(Summary.format(megabytes(scaleBaseline.median), 1)) MB.",
      ]
    }
    if let first = scale.first, let last = scale.last, scale.count > 1 {
      let growth = last.microsecondsPerTask.median / first.microsecondsPerTask.median
      lines += [
        "",
        "Time per task at \(last.tasks.formatted()) is \(Summary.format(growth, 2))× that at "
          + "\(first.tasks.formatted()).",
      ]
    }
    return lines
  }
}
