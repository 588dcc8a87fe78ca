// Another test's round trips, measured alone and beside schedulers
// running back to back on the main actor, in the same run: a scheduler owns its own jobs and
// nothing else, so the other test's jobs should neither run on its thread nor wait for it.

import ConcurrencyExtras
import Dispatch
import FeatureScenarios
import Glibc
import TaskProvidingTesting

/// One run of the foreign loop, alone and beside schedulers.
struct OwnershipRun: Sendable {
  /// Microseconds per round trip.
  let alone: [Double]
  let beside: [Double]
  /// How many schedulers ran while the loop ran beside them.
  let schedulers: Int
  /// Round trips that ran on the thread driving a scheduler, while it drove it.
  let onDriver: Int
}

struct OwnershipFigures: Sendable {
  let trips: Int
  let runs: [OwnershipRun]

  func percentile(_ p: Double, beside: Bool) -> Summary {
    Summary(runs.map { run in numberfact_bench.percentile(beside ? run.beside : run.alone, p) })
  }
}

/// Something to ping: an actor on the pool, as another test's model might be.
private actor Pong {
  private var count = 0
  func ping() -> Int {
    count += 1
    return count
  }
}

/// `trips` round trips from a detached task: each a yield (a job for the pool, which passes
/// the enqueue hook) and a call on an actor, timed one by one. `driving` names the thread
/// driving a scheduler right now, if any.
private func foreignLoop(trips: Int, driving: LockIsolated<UInt?>) async -> ([Double], Int) {
  await Task.detached {
    let pong = Pong()
    var times: [Double] = []
    times.reserveCapacity(trips)
    var onDriver = 0
    let clock = ContinuousClock()
    for _ in 0..<trips {
      let start = clock.now
      await Task.yield()
      _ = await pong.ping()
      times.append((clock.now - start).seconds * 1e6)
      if driving.value == UInt(bitPattern: Int(bitPattern: pthread_self())) { onDriver += 1 }
    }
    return (times, onDriver)
  }.value
}

func ownershipFigures(_ plan: Plan) async -> OwnershipFigures {
  let trips = plan.ownershipTrips
  var runs: [OwnershipRun] = []
  for run in 1...plan.runs {
    let driving = LockIsolated<UInt?>(nil)
    let (alone, _) = await foreignLoop(trips: trips, driving: driving)
    // The same loop, while the main actor runs schedulers back to back until it ends.
    let finished = LockIsolated(false)
    let beside = Task.detached {
      defer { finished.setValue(true) }
      return await foreignLoop(trips: trips, driving: driving)
    }
    let schedulers = await MainActor.run { () -> Int in
      var count = 0
      while !finished.value {
        _ = try? withSerialScheduler {
          driving.setValue(UInt(bitPattern: Int(bitPattern: pthread_self())))
          try await Scenario.outOfOrder.ours.run()
        }
        driving.setValue(nil)
        count += 1
      }
      return count
    }
    let (besideTimes, onDriver) = await beside.value
    let result = OwnershipRun(
      alone: alone, beside: besideTimes, schedulers: schedulers, onDriver: onDriver)
    runs.append(result)
    log(
      "ownership: run \(run): alone p50 \(Summary.format(percentile(alone, 0.5), 1)) µs, "
        + "p99 \(Summary.format(percentile(alone, 0.99), 1)) µs; beside \(schedulers) "
        + "schedulers p50 \(Summary.format(percentile(besideTimes, 0.5), 1)) µs, "
        + "p99 \(Summary.format(percentile(besideTimes, 0.99), 1)) µs; on the driver: \(onDriver)")
  }
  return OwnershipFigures(trips: trips, runs: runs)
}

extension Report {
  func ownershipSection() -> [String] {
    guard let ownership else { return [] }
    let alone50 = ownership.percentile(0.5, beside: false)
    let alone99 = ownership.percentile(0.99, beside: false)
    let beside50 = ownership.percentile(0.5, beside: true)
    let beside99 = ownership.percentile(0.99, beside: true)
    let schedulers = Summary(ownership.runs.map { Double($0.schedulers) })
    let onDriver = ownership.runs.map(\.onDriver).reduce(0, +)
    let difference = Summary(
      ownership.runs.map { percentile($0.beside, 0.99) - percentile($0.alone, 0.99) })
    return [
      "", "## Another test beside a scheduler", "",
      "A detached loop of \(ownership.trips) round trips (a `Task.yield()`, which passes the "
        + "runtime's enqueue hook, then a call on an actor), timed one by one: alone, then while "
        + "the main actor runs `withSerialScheduler` back to back (a feature scenario each time) "
        + "until the loop ends. Microseconds per round trip.", "",
      "| | p50 | p99 |", "|---|---:|---:|",
      "| Alone | \(alone50.formatted(1)) | \(alone99.formatted(1)) |",
      "| Beside schedulers | \(beside50.formatted(1)) | \(beside99.formatted(1)) |",
      "",
      "p99 beside minus p99 alone: **\(difference.formatted(1)) µs** (goal: within 1,000 µs). "
        + "Schedulers run meanwhile: \(schedulers.formatted(0)). Round trips that ran on a "
        + "scheduler's thread while it drove it: **\(onDriver)** (goal: 0).",
    ]
  }
}
