import ArgumentParser
import FactClient
import FactStore
import Foundation

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
    let factStore = store.makeStore()
    do {
      if clear {
        try await clearHistory(factStore)
        return
      }
      let facts = try await factStore.history(
        .init(search: search, limit: limit ?? FactStore.historyLimit))
      if json {
        print(try FactJSON.encoded(facts.map(FactJSON.init)))
      } else {
        writeLines(facts.lazy.map(\.text))
      }
    } catch let error as FactStoreError {
      printError(error.description)
      throw ExitCode.failure
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

/// Writes each of `lines` and a newline to standard output, in large writes: `history` may
/// print 100,000 lines, and one joined string would copy them all twice.
func writeLines(_ lines: some Sequence<String>) {
  var buffer: [UInt8] = []
  buffer.reserveCapacity(1 << 16)
  func flush() {
    buffer.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        // A closed pipe (`history | head`): the reader has what it wanted.
        guard written > 0 else { return }
        offset += written
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }
  for line in lines {
    buffer.append(contentsOf: line.utf8)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= 1 << 16 { flush() }
  }
  flush()
}
