/// Where a terminal's events go: held until the render loop starts, then handed to it as
/// they happen, on the main actor. Nothing follows ``TerminalEvent/inputClosed``.
@MainActor
package final class TerminalEventOutlet {
  private var receive: (@MainActor (TerminalEvent) -> Void)?
  private var held: [TerminalEvent] = []
  /// Whether the input has ended.
  package private(set) var hasClosed = false

  package init() {}

  /// Hands the events held so far to `receive`, then every later one as it comes.
  package func start(_ receive: @escaping @MainActor (TerminalEvent) -> Void) {
    precondition(self.receive == nil, "a terminal's events have one receiver")
    self.receive = receive
    let held = held
    self.held = []
    for event in held { receive(event) }
  }

  /// Passes `event` on, or holds it until ``start(_:)``.
  package func send(_ event: TerminalEvent) {
    guard !hasClosed else { return }
    if event == .inputClosed { hasClosed = true }
    if let receive {
      receive(event)
    } else {
      held.append(event)
    }
  }
}
