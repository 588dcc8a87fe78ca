import ArgumentParser
import Dependencies
import FactClientLive
import FactStore
import Foundation
import NumberFactConfig
import NumberFactCore
import NumberFactTUI
import TaskProviding

/// Prints facts and exits: for pipes and scripts.
struct Fact: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fact",
    abstract: "Print facts about numbers, one line each.",
    discussion: """
      NUMBERS are integers (42, -7), ranges (1..5), dates with --kind date (2/29), or the \
      word random (with --min and --max to bound it). Prints one line per number, in the \
      order given, sanitized (no control characters), and exits 0. On failure prints the \
      reason to stderr and exits 1. With --json, one number prints an object and several \
      print an array.
        numberfact fact 1729 --kind math
        numberfact fact 1..5 10 -3
        numberfact fact --kind date 2/29
        numberfact fact random --kind year --min 1900 --max 1999
      """
  )

  /// The most numbers one command prints.
  static let maximumCount = 10_000

  // All unrecognized words, so that -7 is a number, not an unknown option.
  @Argument(parsing: .allUnrecognized, help: "Numbers, ranges (1..5), dates (2/29), or random.")
  var numbers: [String] = []

  @OptionGroup var client: ClientOptions

  @Option(help: "With random: the smallest number to pick.")
  var min: Int?

  @Option(help: "With random: the largest number to pick.")
  var max: Int?

  @Flag(
    help: "Print JSON: number, kind, text, found, source, and host, offlineReason or seen.")
  var json = false

  @OptionGroup var store: StoreOptions

  /// What the operands ask for.
  enum Request: Equatable {
    case numbers([Int], single: Bool)
    case random(ClosedRange<Int>?)
  }

  func validate() throws {
    _ = try request()
  }

  /// Reads the operands; a message naming the first one that is not a number, range or date.
  func request() throws -> Request {
    // `--` still ends the options, as scripts written for earlier versions use it.
    let numbers = numbers.filter { $0 != "--" }
    guard !numbers.isEmpty else {
      throw ValidationError("Give a number, a range such as 1..5, a date such as 2/29, or random.")
    }
    if numbers.contains("random") {
      guard numbers == ["random"] else {
        throw ValidationError("random stands alone: numberfact fact random --kind math")
      }
      switch (min, max) {
      case (nil, nil): return .random(nil)
      case (let low?, let high?):
        guard low <= high else { throw ValidationError("--min \(low) is above --max \(high).") }
        return .random(low...high)
      case (let low?, nil): return .random(low...Int.max)
      case (nil, let high?): return .random(Int.min...high)
      }
    }
    if min != nil || max != nil {
      throw ValidationError(
        "--min and --max go with random: numberfact fact random --min 1 --max 9")
    }
    var result: [Int] = []
    for operand in numbers {
      do {
        result += try FactOperand.numbers(in: operand, kind: client.kind, limit: Self.maximumCount)
      } catch {
        throw ValidationError(error.description)
      }
      guard result.count <= Self.maximumCount else {
        throw ValidationError(
          "That is more than \(Self.maximumCount.formatted()) numbers; ask for fewer at a time.")
      }
    }
    let single = numbers.count == 1 && !numbers[0].contains("..")
    return .numbers(result, single: single)
  }

  func run() async throws {
    try Settings.check()
    let request = try request()
    let facts: [NumberFact]
    let factStore = store.makeStore()
    let warnings = StoreWarnings()
    let factClient = client.makeClient(store: factStore, warnings: warnings)
    do {
      facts = try await FactHTTP.whileRunning {
        switch request {
        case .random(let range): [try await factClient.random(client.kind, range)]
        case .numbers(let numbers, _): try await factClient.facts(numbers, client.kind)
        }
      }
    } catch {
      printError(NumberFactError.message(for: error))
      throw ExitCode.failure
    }
    if json {
      if case .numbers(_, single: false) = request {
        print(try FactJSON.encoded(facts.map(FactJSON.init)))
      } else if let fact = facts.first {
        print(try FactJSON.encoded(FactJSON(fact)))
      }
    } else {
      print(facts.map(\.text).joined(separator: "\n"))
    }
    if let reason = facts.lazy.compactMap(\.offlineReason).first {
      printError("offline \(facts.count == 1 ? "fact" : "facts"): \(reason)")
    }
    let stored = facts.filter { $0.source == .stored }
    if let newest = stored.compactMap(\.seen).max() {
      let what = stored.count == 1 ? "fact" : "\(stored.count) facts"
      printError("\(what) from the store, \(SeenAge.phrase(seen: newest, now: Date()))")
    }
    if let factStore { await warnings.tolerating { try await factStore.record(facts, Date()) } }
  }
}
