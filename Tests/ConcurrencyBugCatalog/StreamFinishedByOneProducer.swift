// A producer/consumer on AsyncStream: several producers feed one stream, and the first to
// finish its own work finishes the stream for all, so the others' readings are dropped.

import TaskProvidingTesting

/// A sensor with a few readings to give.
actor Sensor {
  let readings: [Int]
  init(readings: [Int]) { self.readings = readings }
  func read() -> [Int] { readings }
}

/// Merges every sensor's readings into one stream. Flawed: each producer finishes the
/// stream when it is done, whether or not the others are.
enum SensorMerge {
  static func readings(from sensors: [Sensor]) -> AsyncStream<Int> {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    for (number, sensor) in sensors.enumerated() {
      Task.detached(name: "read sensor \(number + 1)") {
        for reading in await sensor.read() { continuation.yield(reading) }
        continuation.finish()
      }
    }
    return stream
  }
}

/// The fix: the producers run in one task group, and the stream finishes once all are done.
enum GroupedSensorMerge {
  static func readings(from sensors: [Sensor]) -> AsyncStream<Int> {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    Task.detached(name: "read sensors") {
      await withTaskGroup(of: Void.self) { group in
        for sensor in sensors {
          group.addTask {
            for reading in await sensor.read() { continuation.yield(reading) }
          }
        }
      }
      continuation.finish()
    }
    return stream
  }
}

extension CatalogEntry {
  static let streamFinishedByOneProducer = CatalogEntry(
    name: "a producer/consumer on AsyncStream",
    summary: "the first sensor to finish finishes the stream, dropping the other's readings",
    bug: { exploration in try await consume(exploration, merge: SensorMerge.readings) },
    fixed: { exploration in try await consume(exploration, merge: GroupedSensorMerge.readings) })

  @MainActor
  private static func consume(
    _ exploration: Exploration, merge: @escaping @Sendable ([Sensor]) -> AsyncStream<Int>
  ) async throws {
    let sensors = [Sensor(readings: [1, 2]), Sensor(readings: [3, 4])]
    let total = await Task(name: "dashboard") {
      var total: [Int] = []
      for await reading in merge(sensors) { total.append(reading) }
      return total
    }.value
    exploration.atEnd("every reading reaches the dashboard") { total.sorted() == [1, 2, 3, 4] }
  }
}
