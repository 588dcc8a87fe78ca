import Foundation
import NumberFactFuzzing
import Testing

/// Every fuzz target's seed corpus and the inputs its crashes were shrunk to, run once:
/// a property that fails stops the test process, as it stopped the fuzzer.
@Suite struct FuzzCorpusTests {
  static let fuzz = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz")

  static func inputs(_ folder: String, _ target: FuzzTarget) -> [URL] {
    let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.sorted().map { directory.appendingPathComponent($0) }
  }

  @Test(arguments: FuzzTarget.allCases)
  func everySeedHolds(_ target: FuzzTarget) throws {
    let seeds = Self.inputs("corpus", target)
    #expect(seeds.count >= 5, "a seed corpus for \(target.rawValue)")
    for seed in seeds { target.run(try Data(contentsOf: seed)) }
  }

  @Test(arguments: FuzzTarget.allCases)
  func everyCrashFoundStaysFixed(_ target: FuzzTarget) throws {
    for input in Self.inputs("regressions", target) { target.run(try Data(contentsOf: input)) }
  }

  /// The regressions are there: a folder renamed would leave the test above with nothing.
  @Test func theCrashesFoundAreKept() {
    #expect(Self.inputs("regressions", .sanitizer).count == 4)
    #expect(Self.inputs("regressions", .config).count == 3)
  }
}
