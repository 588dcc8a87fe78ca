// Times each style of Everyday.swift in this package's build, side by side in one run, and
// prints the medians: `swift run adopter-everyday [runs] [tests per run]`.
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let runs = arguments.first ?? 5
let tests = arguments.dropFirst().first ?? 2_000
let figures = try await everydayFigures(runs: runs, tests: tests)
let median = { (style: EverydayStyle) -> Double in
  let sorted = (figures.microseconds[style] ?? [0]).sorted()
  return sorted[sorted.count / 2]
}
#if DEBUG
  let build = "debug"
#else
  let build = "release"
#endif
print("\(runs) runs × \(tests) tests per style, \(build) build, medians:")
print("| Style | µs per test | ÷ floor | ÷ naive | assertion failed |")
print("|---|---:|---:|---:|---:|")
let rounded = { (value: Double) in (value * 100).rounded() / 100 }
for style in EverydayStyle.allCases {
  print(
    "| \(style.rawValue) | \((median(style) * 10).rounded() / 10) | "
      + "\(rounded(median(style) / median(.handWritten))) | "
      + "\(rounded(median(style) / median(.naive))) | \(figures.failures[style] ?? 0) |")
}
