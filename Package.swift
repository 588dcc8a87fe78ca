// swift-tools-version: 6.2
import PackageDescription

/// The toolkit's modules are optimized in a debug build too, the build tests run in: every
/// test an adopter writes runs their records, waits and schedulers, which unoptimized cost the
/// serial style three times as much (57 against 18 µs a test in an adopter's package). A
/// debugger steps through them as through any optimized library. `-O` is an unsafe flag, which
/// SwiftPM accepts from a versioned dependency only when its manifest declares tools version
/// 6.2 or later: hence this manifest's.
let toolkitSettings: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// A product only the app, its clients, the benchmark and their tests use: with the `App`
/// trait off, SwiftPM fetches none of the packages named this way.
func app(_ name: String, _ package: String) -> Target.Dependency {
  .product(name: name, package: package, condition: .when(traits: ["App"]))
}

let package = Package(
  name: "numberfact",
  // The floor of `Synchronization.Mutex`, which the toolkit's testing module is built on;
  // The Platforms article of TaskProvidingTesting lists every API it uses and their floors.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .executable(name: "numberfact", targets: ["numberfact"]),
    .library(name: "TaskProviding", targets: ["TaskProviding"]),
    .library(name: "TaskProvidingTesting", targets: ["TaskProvidingTesting"]),
  ],
  traits: [
    .trait(
      name: "SwiftDependencies",
      description: """
        `@Dependency(\\.taskProvider)` and test traits that install their provider there. \
        Without it the toolkit builds without swift-dependencies.
        """),
    .trait(
      name: "App",
      description: """
        The app, its fact clients and their tests, with every package they need. An adopter \
        of the toolkit leaves it off and fetches none of them.
        """),
    .default(enabledTraits: ["SwiftDependencies", "App"]),
  ],
  dependencies: [
    // `Clocks` only: the default traits also pull in combine-schedulers.
    .package(
      url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Clocks"]),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    // Already built for AsyncHTTPClient; named to read its error types.
    .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
    // The store: SQLite in WAL mode, migrations, concurrency across processes.
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    // The settings file.
    .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    // Peer code the explorer is tried on (PeerCodeTests), with swift-nio, swift-clocks and
    // swift-concurrency-extras above.
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    // `Deque`, which a `NIOAsyncWriter`'s sink is handed; already built for swift-nio.
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    // `swift package generate-documentation --target TaskProvidingTesting`
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // The project's locks: pthread locks ThreadSanitizer sees, for the toolkit and the app
    // alike. Not a product.
    .target(name: "LockSupport", swiftSettings: toolkitSettings),
    .target(
      name: "TaskProviding",
      dependencies: [
        "LockSupport",
        .product(
          name: "Dependencies", package: "swift-dependencies",
          condition: .when(traits: ["SwiftDependencies"])),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      swiftSettings: toolkitSettings
    ),
    // The loader's list of loaded images (`link.h`), which the explorer names frames from.
    .target(name: "CLinkMap", path: "Modules/CLinkMap"),
    // Task creation, seen by a scope: the tasks its code creates prefer its executor.
    .target(name: "CTaskCreation", path: "Modules/CTaskCreation"),
    // What tests import: the providers, controlled functions, waits and traits, and the
    // runtime-hook machinery under them (which jobs are a scheduler's own, the serial
    // scheduler, the explorer's engine, its strategies and its replay strings).
    .target(
      name: "TaskProvidingTesting",
      dependencies: [
        "CLinkMap",
        "CTaskCreation",
        "LockSupport",
        "TaskProviding",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(
          name: "Dependencies", package: "swift-dependencies",
          condition: .when(traits: ["SwiftDependencies"])),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // Without it, `reportIssue` only prints under Swift Testing and the test still passes.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ],
      swiftSettings: toolkitSettings
    ),
    // The fact client's interface: the witness, facts, kinds, errors, offline facts and the
    // fallback policy. No networking: the feature and its tests link this, not NIO.
    .target(
      name: "FactClient",
      dependencies: [
        "LockSupport",
        app("Dependencies", "swift-dependencies"),
        app("IssueReporting", "xctest-dynamic-overlay"),
      ]
    ),
    // The client over HTTP, on AsyncHTTPClient: only the app, the benchmark and their tests.
    .target(
      name: "FactClientLive",
      dependencies: [
        "FactClient",
        "LockSupport",
        app("AsyncHTTPClient", "async-http-client"),
        app("Dependencies", "swift-dependencies"),
        app("NIOCore", "swift-nio"),
        app("NIOPosix", "swift-nio"),
        app("NIOSSL", "swift-nio-ssl"),
      ]
    ),
    // What the app remembers across runs, as an interface: facts seen, the session, the
    // seen-first offline client. No database: the feature and its tests link this.
    .target(
      name: "FactStore",
      dependencies: ["FactClient", "LockSupport"]
    ),
    // The store on SQLite through GRDB: only the app, the benchmark and their tests.
    .target(
      name: "FactStoreSQLite",
      dependencies: [
        "FactClient",
        "FactStore",
        "LockSupport",
        app("GRDB", "GRDB.swift"),
      ]
    ),
    // The settings file, config.toml: only the app and its tests.
    .target(
      name: "NumberFactConfig",
      dependencies: [
        "FactClient",
        app("TOMLKit", "TOMLKit"),
      ]
    ),
    .target(
      name: "NumberFactCore",
      dependencies: [
        "FactClient",
        "FactStore",
        "LockSupport",
        "TaskProviding",
        app("Dependencies", "swift-dependencies"),
        app("IssueReporting", "xctest-dynamic-overlay"),
      ]
    ),
    .target(
      name: "NumberFactTesting",
      dependencies: [
        "LockSupport",
        "NumberFactCore",
        "TaskProvidingTesting",
        app("IssueReporting", "xctest-dynamic-overlay"),
        app("IssueReportingTestSupport", "xctest-dynamic-overlay"),
      ]
    ),
    .systemLibrary(
      name: "CNcurses",
      path: "Modules/CNcurses",
      // No `pkgConfig`: its flags are ones SwiftPM refuses; the shim defines what it needs.
      providers: [.apt(["libncurses-dev"])]
    ),
    .target(
      name: "NumberFactTUI",
      dependencies: [
        "CNcurses",
        "NumberFactCore",
        "TaskProviding",
      ]
    ),
    // Scripted tests of the terminal app for anyone: keys and controlled answers drive the
    // real render loop on a virtual terminal; frames compare to golden text files.
    .target(
      name: "NumberFactTUITesting",
      dependencies: [
        "CNcurses",
        "LockSupport",
        "NumberFactCore",
        "NumberFactTesting",
        "NumberFactTUI",
        "TaskProviding",
        "TaskProvidingTesting",
        app("Dependencies", "swift-dependencies"),
        app("IssueReporting", "xctest-dynamic-overlay"),
        app("SnapshotTesting", "swift-snapshot-testing"),
      ]
    ),
    .executableTarget(
      name: "numberfact",
      dependencies: [
        "FactClientLive",
        "FactStore",
        "FactStoreSQLite",
        "LockSupport",
        "NumberFactConfig",
        "NumberFactCore",
        "NumberFactTUI",
        "TaskProviding",
        app("ArgumentParser", "swift-argument-parser"),
        app("Dependencies", "swift-dependencies"),
      ]
    ),
    // The parsers that take text from outside, each with the properties its output must
    // have, and the program that fuzzes them (docs/reliability.md, "Fuzzing").
    .target(
      name: "NumberFactFuzzing",
      dependencies: [
        "FactClient",
        "NumberFactConfig",
        "NumberFactTUI",
        "TaskProvidingTesting",
      ]
    ),
    .target(name: "CFuzzerDriver", path: "Modules/CFuzzerDriver"),
    .executableTarget(
      name: "numberfact-fuzz",
      dependencies: ["CFuzzerDriver", "NumberFactFuzzing"],
      path: "Fuzz/numberfact-fuzz"
    ),
    // Benchmarks: `swift run -c release numberfact-bench`. Not a product and not a test.
    .executableTarget(
      name: "numberfact-bench",
      dependencies: [
        "numberfact",  // built alongside, for the app's section to drive
        "ConcurrencyBugCatalog",
        "ExplorationScenarios",
        "FactClient",
        "FactClientLive",
        "FeatureScenarios",
        "FactStore",
        "FactStoreSQLite",
        app("IssueReporting", "xctest-dynamic-overlay"),
        "NumberFactCore",
        "NumberFactTesting",
        "PeerScenarios",
        "TaskProviding",
        "TaskProvidingTesting",
        app("ArgumentParser", "swift-argument-parser"),
        app("Clocks", "swift-clocks"),
        app("ConcurrencyExtras", "swift-concurrency-extras"),
      ],
      path: "Benchmarks/numberfact-bench",
      // GRDB, under the store, declares operators on its SQL expressions; without this they
      // reach every file here and slow the type checker past its limit on string building.
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
    ),
    // What the suite's tests share that is about the suite itself: turns on the main actor, a
    // thread of its own for a test that computes for seconds, the explorer's facilities a build
    // has.
    .target(
      name: "SuiteSupport", dependencies: ["LockSupport", "TaskProvidingTesting"],
      path: "Tests/SuiteSupport"),
    // Classic Swift concurrency bugs, each beside its fixed twin, that the explorer must find
    // (CatalogTests) and whose schedules the benchmark counts.
    .target(
      name: "ConcurrencyBugCatalog",
      dependencies: ["LockSupport", "TaskProviding", "TaskProvidingTesting"],
      path: "Tests/ConcurrencyBugCatalog"
    ),
    // The app module of the docs' samples, as an adopter's app target: its model's members are
    // internal, and the samples' tests reach them with `@testable import MyApp`.
    .target(
      name: "MyApp",
      dependencies: ["TaskProviding", app("Dependencies", "swift-dependencies")],
      path: "Tests/MyApp"
    ),
    .testTarget(
      name: "TaskProvidingTests",
      dependencies: [
        "ConcurrencyBugCatalog",
        "LockSupport",
        "MyApp",
        "SuiteSupport",
        "TaskProviding",
        "TaskProvidingTesting",
        app("ConcurrencyExtras", "swift-concurrency-extras"),
        app("Dependencies", "swift-dependencies"),
        app("IssueReportingTestSupport", "xctest-dynamic-overlay"),
      ]
    ),
    .target(
      name: "FactServerSupport",
      dependencies: [app("FlyingFox", "FlyingFox")],
      path: "Tests/FactServerSupport"
    ),
    .testTarget(
      name: "NumberFactTUITests",
      dependencies: [
        "CNcurses",
        "LockSupport",
        "SuiteSupport",
        "NumberFactCore",
        "NumberFactTUI",
        "NumberFactTUITesting",
        "NumberFactTesting",
        "TaskProviding",
        "TaskProvidingTesting",
        "FactServerSupport",
        app("Dependencies", "swift-dependencies"),
        app("IssueReportingTestSupport", "xctest-dynamic-overlay"),
        app("SnapshotTesting", "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"]
    ),
    // The feature's timing-sensitive scenarios, shared by the tests that run them once and the
    // ones that run them 10,000 times.
    .target(
      name: "FeatureScenarios",
      dependencies: [
        "NumberFactCore",
        "NumberFactTesting",
        "TaskProviding",
        "TaskProvidingTesting",
        app("Dependencies", "swift-dependencies"),
      ],
      path: "Tests/FeatureScenarios"
    ),
    // The feature's exploration scenarios and the flawed copies of its model, shared by
    // ExplorationTests and the benchmark.
    .target(
      name: "ExplorationScenarios",
      dependencies: [
        "NumberFactCore",
        "NumberFactTesting",
        "TaskProviding",
        "TaskProvidingTesting",
      ],
      path: "Tests/ExplorationScenarios"
    ),
    // The explorer on code no one here wrote: swift-async-algorithms' channels, merge and
    // debounce, with the properties the library promises.
    // The failures the explorer finds in peer code, for PeerCodeTests and the benchmark.
    .target(
      name: "PeerScenarios",
      dependencies: [
        "TaskProvidingTesting",
        app("AsyncAlgorithms", "swift-async-algorithms"),
        app("Clocks", "swift-clocks"),
        app("DequeModule", "swift-collections"),
        app("NIOConcurrencyHelpers", "swift-nio"),
        app("NIOCore", "swift-nio"),
      ],
      path: "Tests/PeerScenarios"
    ),
    .testTarget(
      name: "PeerCodeTests",
      dependencies: [
        "LockSupport",
        "PeerScenarios",
        "SuiteSupport",
        "TaskProvidingTesting",
        app("AsyncAlgorithms", "swift-async-algorithms"),
        app("Clocks", "swift-clocks"),
        app("ConcurrencyExtras", "swift-concurrency-extras"),
        app("DequeModule", "swift-collections"),
        app("Configuration", "swift-configuration"),
        app("GRDB", "GRDB.swift"),
        app("Logging", "swift-log"),
        app("NIOConcurrencyHelpers", "swift-nio"),
        app("NIOCore", "swift-nio"),
        app("ServiceLifecycle", "swift-service-lifecycle"),
      ]
    ),
    .testTarget(
      name: "FactClientTests",
      dependencies: [
        "FactClient",
        "NumberFactTesting",
        "SuiteSupport",
        "TaskProvidingTesting",
        app("ConcurrencyExtras", "swift-concurrency-extras"),
        app("Dependencies", "swift-dependencies"),
        app("IssueReportingTestSupport", "xctest-dynamic-overlay"),
      ]
    ),
    .testTarget(
      name: "FuzzCorpusTests",
      dependencies: ["NumberFactFuzzing"]
    ),
    .testTarget(
      name: "ConfigTests",
      dependencies: ["FactClient", "NumberFactConfig"]
    ),
    .testTarget(
      name: "FactStoreTests",
      dependencies: [
        "FactClient",
        "FactStore",
        "FactStoreSQLite",
        "LockSupport",
        "TaskProviding",
        app("GRDB", "GRDB.swift"),
        app("IssueReportingTestSupport", "xctest-dynamic-overlay"),
      ]
    ),
    .testTarget(
      name: "FactClientLiveTests",
      dependencies: [
        "FactClient",
        "FactClientLive",
        "FactServerSupport",
        app("FlyingFox", "FlyingFox"),
      ]
    ),
    .testTarget(
      name: "NumberFactCoreTests",
      dependencies: [
        "ExplorationScenarios",
        "LockSupport",
        "SuiteSupport",
        "FeatureScenarios",
        "FactServerSupport",
        "NumberFactCore",
        "NumberFactTesting",
        "TaskProviding",
        "TaskProvidingTesting",
        app("ConcurrencyExtras", "swift-concurrency-extras"),
        app("CustomDump", "swift-custom-dump"),
        app("Dependencies", "swift-dependencies"),
        app("FlyingFox", "FlyingFox"),
        app("IssueReportingTestSupport", "xctest-dynamic-overlay"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny")
    ]
}
