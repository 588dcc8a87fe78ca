import ArgumentParser
import FactClient
import FactStore
import Foundation
import LockSupport

/// Prints the facts seen, newest first, or forgets them.
struct History: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Print the facts seen, newest first, one line each.",
    discussion: """
      Every fact the app or `numberfact fact` showed is kept in \
      $XDG_DATA_HOME/numberfact/store.sqlite (~/.local/share/numberfact/ by default), once \
      per number, kind and text. Lines are sanitized (no control characters).
        numberfact history --search prime
        numberfact history --json --limit 10
        numberfact history --clear
      """)

  @Option(help: "Only facts whose text contains this, ignoring case.")
  var search: String?

  @Option(help: "At most this many facts.")
  var limit: Int?

  @Flag(help: "Print a JSON array: number, kind, text, found, source, host and seen.")
  var json = false

  @Flag(help: "Forget every fact seen (asks first when stdin is a terminal).")
  var clear = false

  @OptionGroup var store: StoreOptions

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    if clear, search != nil || limit != nil || json {
      throw ValidationError("--clear stands alone: numberfact history --clear")
    }
  }

  func run() async throws {
    guard let factStore = store.makeStore() else {
      // No store (`--no-store`, or no home to keep one in): nothing was kept, so there is
      // nothing to list and nothing to forget.
      if clear {
        printError("forgot 0 facts")
      } else if json {
        print("[]")
      }
      return
    }
    do {
      if clear {
        try await clearHistory(factStore)
        return
      }
      let query = FactStore.HistoryQuery(search: search, limit: limit ?? FactStore.historyLimit)
      // Each line goes out as it is read: 100,000 facts are never held at once.
      let output = StandardOutputLines()
      if json {
        try await printJSON(factStore, query, to: output)
      } else {
        try await factStore.eachTextInHistory(query) { output.write($0) }
      }
      output.flush()
    } catch let error as FactStoreError {
      printError(error.description)
      throw ExitCode.failure
    }
  }

  /// A JSON array, one fact a line. Each line is held until the next is read, for only then
  /// is it known whether a comma follows it.
  private func printJSON(
    _ factStore: FactStore, _ query: FactStore.HistoryQuery, to output: StandardOutputLines
  ) async throws {
    let encoder = FactJSON.encoder()
    let held = Locked<String?>(nil)
    try await factStore.eachInHistory(query) { fact in
      let line = try FactJSON.encoded(FactJSON(fact), with: encoder)
      held.withLock { held in
        if let previous = held {
          output.write("  " + previous + ",")
        } else {
          output.write("[")
        }
        held = line
      }
    }
    if let last = held.withLock({ $0 }) {
      output.write("  " + last)
      output.write("]")
    } else {
      output.write("[]")
    }
  }

  private func clearHistory(_ factStore: FactStore) async throws {
    if isatty(STDIN_FILENO) == 1 {
      FileHandle.standardError.write(Data("Forget every fact seen? [y/N] ".utf8))
      let answer = readLine(strippingNewline: true)?.lowercased() ?? ""
      guard answer == "y" || answer == "yes" else {
        printError("nothing forgotten")
        return
      }
    }
    let count = try await factStore.clearHistory()
    printError("forgot \(count) \(count == 1 ? "fact" : "facts")")
  }
}

/// Lines for standard output, sent in large writes: `history` may print 100,000 lines, and a
/// write each, or one joined string, would cost more than reading them.
final class StandardOutputLines: Sendable {
  private let buffer = Locked<[UInt8]>([])

  /// Adds `line` and a newline, sending what is held once it passes 64 KiB.
  func write(_ line: String) {
    buffer.withLock { buffer in
      buffer.append(contentsOf: line.utf8)
      buffer.append(UInt8(ascii: "\n"))
      if buffer.count >= 1 << 16 { Self.send(&buffer) }
    }
  }

  /// Sends what is held.
  func flush() {
    buffer.withLock { Self.send(&$0) }
  }

  private static func send(_ buffer: inout [UInt8]) {
    buffer.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        // A closed pipe (`history | head`): the reader has what it wanted.
        guard written > 0 else { return }
        offset += written
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
