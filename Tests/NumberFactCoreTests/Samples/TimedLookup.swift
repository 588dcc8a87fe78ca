// The sample "timed-lookup" of testing-async.md and ExploringSchedules.md, whole, as a reader copies it.

// sample: timed-lookup
import TaskProviding

/// Looks a word up, and gives up after five seconds.
@MainActor
final class TimedLookup {
  enum Status: Equatable {
    case idle, loading, timedOut
    case found(String)
  }

  private let taskProvider: any TaskProvider
  private let clock: any Clock<Duration>
  private let define: @Sendable (String) async throws -> String
  private(set) var status = Status.idle

  init(
    taskProvider: any TaskProvider, clock: any Clock<Duration>,
    define: @escaping @Sendable (String) async throws -> String
  ) {
    self.taskProvider = taskProvider
    self.clock = clock
    self.define = define
  }

  func lookUp(_ word: String) {
    status = .loading
    let request = taskProvider.task(name: "define \(word)") {
      guard let definition = try? await self.define(word), self.status == .loading else { return }
      self.status = .found(definition)
    }
    taskProvider.task(name: "time out \(word)") {
      guard (try? await self.clock.sleep(for: .seconds(5))) != nil else { return }  // virtual time
      request.cancel()
      // Forgets to check that it is still loading: a definition that came in time is lost.
      self.status = .timedOut
    }
  }
}
// end sample
