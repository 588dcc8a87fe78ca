import Foundation
import SuiteSupport
import Testing

/// Checks that each ```swift block of the docs is quoted, to the character, from a region
/// of a sample file under Tests, so every sample a reader copies has been compiled and run.
///
/// Reading every source file takes long enough to keep a thread of the cooperative pool from
/// the tests beside it: the suite runs on the compute thread, and reads the samples once.
@Suite(.computeThread) struct DocSampleTests {
  static let root = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appending(path: path), encoding: .utf8)
  }

  /// The regions between `// sample: NAME` and `// end sample` in the Swift files under
  /// Tests, without their indentation.
  static let samples = Result { try readSamples() }

  private static func readSamples() throws -> [String: String] {
    var samples: [String: String] = [:]
    var name: String?
    var lines: [Substring] = []
    let sources =
      FileManager.default.enumerator(atPath: root.appending(path: "Tests").path)?
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
    let sourceLines = try sources.flatMap {
      try read("Tests/\($0)").split(separator: "\n", omittingEmptySubsequences: false)
    }
    for line in sourceLines {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("// sample: ") {
        name = String(trimmed.dropFirst("// sample: ".count))
        lines = []
      } else if trimmed == "// end sample", let current = name {
        let indent =
          lines.filter { !$0.allSatisfy(\.isWhitespace) }
          .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        samples[current] = lines.map { String($0.dropFirst(indent)) }.joined(separator: "\n")
        name = nil
      } else if name != nil {
        lines.append(line)
      }
    }
    return samples
  }

  /// The ```swift blocks of a document, with the sample name in the comment before each.
  static func blocks(in path: String) throws -> [(name: String?, code: String)] {
    let lines = try read(path).split(separator: "\n", omittingEmptySubsequences: false)
    var blocks: [(String?, String)] = []
    var index = 0
    while index < lines.count {
      guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
        index += 1
        continue
      }
      let marker = index > 0 ? lines[index - 1] : ""
      let name =
        marker.hasPrefix("<!-- sample: ") && marker.hasSuffix(" -->")
        ? String(marker.dropFirst("<!-- sample: ".count).dropLast(" -->".count)) : nil
      var code: [Substring] = []
      index += 1
      while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
        code.append(lines[index])
        index += 1
      }
      blocks.append((name, code.joined(separator: "\n")))
      index += 1
    }
    return blocks
  }

  /// README, the guides, and every DocC article of the toolkit.
  static let documents: [String] = {
    let catalogs = ["TaskProviding", "TaskProvidingTesting"].flatMap { module in
      let folder = "Sources/\(module)/\(module).docc"
      let files =
        (try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: folder).path))
        ?? []
      return files.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
    }
    return ["README.md", "docs/app.md", "docs/testing-async.md"] + catalogs
  }()

  @Test(arguments: documents)
  func everySwiftBlockIsACompiledSample(document: String) throws {
    let samples = try Self.samples.get()
    let blocks = try Self.blocks(in: document)
    if !document.contains(".docc/") { #expect(!blocks.isEmpty) }
    for block in blocks {
      let name = try #require(block.name, "a ```swift block in \(document) has no sample marker")
      let sample = try #require(samples[name], "no sample named \(name) under Tests")
      #expect(block.code == sample, "\(document) quotes sample \(name) differently")
    }
  }

  @Test func ciRunsTheReadmeTestCommand() throws {
    let readme = try Self.read("README.md")
    let section = try #require(readme.range(of: "## Run the tests\n\n```sh\n"))
    let command = readme[section.upperBound...].prefix { $0 != "\n" }
    let ci = try Self.read(".ci/run").split(separator: "\n")
    let last = try #require(ci.last.map(String.init))
    // Run as it is, or under the watchdog that bounds it: `.ci/watchdog SECONDS COMMAND`.
    let watched = last.split(separator: " ", maxSplits: 2)
    let ran =
      watched.count == 3 && watched[0] == ".ci/watchdog" && Int(watched[1]) != nil
      ? String(watched[2]) : last
    #expect(ran == String(command))
  }

  /// A sample file whose header says "The sample "NAME" of A.md and B.md" is quoted by
  /// exactly those documents, so the header sends a reader to the right page.
  @Test func eachSampleFileNamesTheDocumentsThatQuoteIt() throws {
    // The tests' samples, and the app target's code they test.
    let files = try ["Tests/TaskProvidingTests/DocSamples/Samples", "Tests/MyApp"].flatMap {
      folder in
      try FileManager.default.contentsOfDirectory(atPath: Self.root.appending(path: folder).path)
        .filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
    }
    var marked: [String: Set<String>] = [:]
    for document in Self.documents {
      for block in try Self.blocks(in: document) {
        if let name = block.name {
          marked[name, default: []].insert(String(document.split(separator: "/").last!))
        }
      }
    }
    var checked = 0
    for file in files {
      let header = try Self.read(file).split(separator: "\n").prefix {
        $0.hasPrefix("//")
      }
      .map { $0.dropFirst(2).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
      guard let said = header.firstMatch(of: /^The samples? (.*?) of (.*?), whole/) else {
        continue
      }
      let names = String(said.1).matches(of: /"([^"]+)"/).map { String($0.1) }
      let named = Set(
        String(said.2).split(separator: " and ").flatMap { $0.split(separator: ", ") }
          .map(String.init))
      let quoting = names.reduce(into: Set<String>()) { $0.formUnion(marked[$1] ?? []) }
      checked += 1
      #expect(named == quoting, "\(file) names \(named.sorted()); quoted by \(quoting.sorted())")
    }
    #expect(checked > 10)
  }
}
