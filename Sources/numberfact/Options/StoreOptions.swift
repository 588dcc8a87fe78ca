import ArgumentParser
import FactClient
import FactStore
import FactStoreSQLite
import Foundation
import LockSupport

/// The options that choose the store: where facts seen and the session are kept.
struct StoreOptions: ParsableArguments {
  @Flag(help: "Neither read nor write the store of facts seen (history, offline facts).")
  var noStore = false

  /// The store these options choose: the SQLite file under `$XDG_DATA_HOME`, or `nil` with
  /// `--no-store` or when there is no home to keep it in.
  /// - Parameter backgroundWrites: Whether writes yield the cores to the keys, for the app.
  func makeStore(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    backgroundWrites: Bool = false
  ) -> FactStore? {
    guard !noStore, let path = FactStore.defaultPath(environment: environment) else {
      return nil
    }
    return .sqlite(at: path, backgroundWrites: backgroundWrites)
  }
}

/// Says each kind of store failure once per run, on stderr: a store that cannot be read is
/// one line, not one per fact.
final class StoreWarnings: Sendable {
  private let said = Locked<Set<String>>([])

  /// Prints `error` unless the same message was printed already.
  func report(_ error: FactStoreError) {
    let message = error.description
    guard said.withLock({ $0.insert(message).inserted }) else { return }
    printError(message)
  }

  /// Runs `operation`, reporting a store failure instead of throwing it.
  func tolerating(_ operation: () async throws -> Void) async {
    do {
      try await operation()
    } catch let error as FactStoreError {
      report(error)
    } catch {
      printError("\(error)")
    }
  }
}
