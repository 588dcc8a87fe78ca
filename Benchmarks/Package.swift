// swift-tools-version: 6.1
// The toolkit's benchmarks on the field's harness (ordo-one's package-benchmark): what a task
// provider costs beside `Task {}`, what waiting for a task costs beside a yield loop, and what
// recording many tasks costs (Toolkit); and the everyday style, a loader test written the
// README's way, beside the same hand-offs written by hand and the naive test (Everyday). Each
// figure has its baseline in the same run, and CI checks each against the thresholds in
// Thresholds/ (`run check`).
//
// A package of its own, so the root's adopters never fetch the harness. It depends on the root
// by path with only its swift-dependencies trait, as an adopter of the toolkit does (the
// everyday style reads its provider through `@Dependency`), and reaches only the root's
// products. What needs the app's modules (the pseudo-terminal driver, the ncurses baseline,
// the store, the schedule counts, the determinism repetitions) stays in the root's
// numberfact-bench, which can see them.
import PackageDescription

/// The root package's identity: a package by path is named by its folder, whatever the
/// clone is called.
let root =
  Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init)
  ?? "numberfact"

let package = Package(
  name: "numberfact-benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: "..", traits: ["SwiftDependencies"]),
    // `Clocks` only, as the root names it: the default traits also pull in combine-schedulers.
    .package(
      url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Clocks"]),
    // Its default traits would also fetch an ARC interposer, for retain and release counts,
    // which these benchmarks do not use.
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "Toolkit",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "TaskProviding", package: root),
        .product(name: "TaskProvidingTesting", package: root),
      ],
      path: "Benchmarks/Toolkit",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "Everyday",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "TaskProviding", package: root),
        .product(name: "TaskProvidingTesting", package: root),
      ],
      path: "Benchmarks/Everyday",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
