import Foundation
import SuiteSupport
import Testing

/// The settings file on the real binary: keys named as the flags, flags over keys, a broken
/// file stops the run with one line, an unknown key is a warning. Parsing, not concurrency:
/// under ThreadSanitizer the plain pass runs them instead, as their sanitized processes
/// starve the tests beside them.
@Suite(
  .serialized, .timeLimit(.minutes(2)),
  .disabled(if: ThreadSanitizer.isActive, "the plain pass runs these process tests"))
struct ConfigProcessTests {
  /// A home whose settings file says `text`.
  static func home(_ text: String) throws -> StoreProcessTests.Home {
    let home = StoreProcessTests.Home()
    let directory = home.path + "/config/numberfact"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try text.write(toFile: directory + "/config.toml", atomically: true, encoding: .utf8)
    return home
  }

  @Test func theFileIsReadAndAFlagOverridesIt() async throws {
    let home = try Self.home("source = \"offline\"\nkind = \"math\"\n")
    let fromFile = try await home.run(["fact", "7", "--json"])
    #expect(fromFile.status == 0)
    #expect(fromFile.stdout.contains(#""kind":"math""#))
    #expect(fromFile.stdout.contains(#""source":"offline""#))
    let overridden = try await home.run(["fact", "7", "--kind", "year", "--json"])
    #expect(overridden.stdout.contains(#""kind":"year""#))
  }

  @Test func anUnknownKeyIsAWarningAndTheRunGoesOn() async throws {
    let home = try Self.home("source = \"offline\"\ncolour = \"blue\"\n")
    let result = try await home.run(["fact", "7"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("7 is"))
    #expect(
      result.stderr
        == "numberfact: warning: \(home.path)/config/numberfact/config.toml:2: unknown key 'colour' ignored (the keys are source, base-url, kind, timeout)\n"
    )
  }

  @Test(arguments: [
    ("source = \"offline\"\ntimeout = -3\n", 2, "timeout must be"),
    ("kind = \"math\"\n[broken\n", 2, ""),
    ("\n\nsource = \"carrier-pigeon\"\n", 3, "source must be"),
    // Found by fuzzing: the TOML parser stopped the process on each of these.
    ("kind = \"math\"\n[:]\n", 2, "':' (U+3A) starts a table name"),
    ("[é]\n", 1, "'é' (U+E9) starts a table name"),
  ])
  func aBrokenFileExits78WithOneLineNamingTheFileAndTheLine(
    _ text: String, _ line: Int, _ message: String
  ) async throws {
    let home = try Self.home(text)
    let path = home.path + "/config/numberfact/config.toml"
    for arguments in [["fact", "7"], ["--source", "offline"]] {
      let result = try await home.run(arguments)
      #expect(result.status == 78, "\(arguments)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.hasPrefix("numberfact: \(path):\(line): \(message)"))
      #expect(result.stderr.split(separator: "\n").count == 1)
    }
    // Help and the version do not need the file.
    #expect(try await home.run(["--help"]).status == 0)
    #expect(try await home.run(["history"]).status == 0)
  }
}
