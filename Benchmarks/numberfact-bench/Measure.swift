import Foundation

/// The median, minimum and maximum of repeated measurements of one figure.
struct Summary: Sendable {
  let median: Double
  let min: Double
  let max: Double

  init(_ values: [Double]) {
    precondition(!values.isEmpty, "a summary needs at least one run")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    median =
      sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    min = sorted[0]
    max = sorted[sorted.count - 1]
  }

  /// `median (min–max)` with `digits` decimals, or the median alone when the runs agree.
  func formatted(_ digits: Int = 2, unit: String = "") -> String {
    let median = Self.format(median, digits) + unit
    if min == max { return median }
    return "\(median) (\(Self.format(min, digits))–\(Self.format(max, digits)))"
  }

  static func format(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }
}

/// The value at fraction `p` (0…1) of sorted `values`, by nearest rank.
func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  let rank = Int((p * Double(sorted.count)).rounded(.up))
  return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
}

extension Duration {
  /// This duration in seconds, as a `Double`.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// CPU time (user + system) this process has used so far, in seconds.
func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The largest resident set this process has had, in bytes.
func peakResidentBytes() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_maxrss * 1024  // kilobytes on Linux
}

/// Megabytes, for tables.
func megabytes(_ bytes: Double) -> Double { bytes / 1_048_576 }

/// Runs `body` on a thread of its own, so blocking calls do not hold a thread of the
/// cooperative pool that the measured code also needs.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread {
      continuation.resume(with: Result { try body() })
    }
    thread.stackSize = 4 << 20
    thread.start()
  }
}
