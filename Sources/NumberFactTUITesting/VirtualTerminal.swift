import Dispatch
import LockSupport
import NumberFactTUI
import NumberFactTesting
import TaskProviding

/// An in-memory terminal for tests: the test sends keys, resizes and signals, and reads
/// back every frame the app drew.
///
/// ```swift
/// let terminal = VirtualTerminal(size: TerminalSize(rows: 24, columns: 80))
/// terminal.type("++")
/// let frame = try await terminal.waitForFrame { $0.contains("Count  2") }
/// ```
@MainActor
package final class VirtualTerminal: Terminal {
  package private(set) var size: TerminalSize
  private let outlet = TerminalEventOutlet()

  /// Every frame drawn, oldest first.
  package private(set) var frames: [Frame] = []
  /// How many times the app suspended itself (Ctrl-Z). A virtual terminal returns at once,
  /// as if continued straight away.
  package private(set) var suspensions = 0
  /// How many times the app asked for the whole screen to be drawn again (Ctrl-L).
  package private(set) var repaints = 0
  /// What the app put on the clipboard (`y`), oldest first.
  package private(set) var copied: [String] = []
  private var waiters: [(id: Int, condition: (Frame) -> Bool, resume: (Frame?) -> Void)] = []
  private var nextWaiter = 0

  /// Creates a terminal of `size` with nothing drawn.
  package init(size: TerminalSize) {
    self.size = size
  }

  /// The last frame drawn, if any.
  package var lastFrame: Frame? { frames.last }

  package func draw(_ frame: Frame) {
    frames.append(frame)
    let ready = waiters.filter { $0.condition(frame) }
    waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
    for waiter in ready { waiter.resume(frame) }
  }

  package func start(_ receive: @escaping @MainActor (TerminalEvent) -> Void) {
    outlet.start(receive)
  }

  package func suspend() {
    suspensions += 1
  }

  package func repaint() {
    repaints += 1
  }

  package func copyToClipboard(_ text: String) {
    copied.append(text)
  }

  /// Sends keys as one batch, as a terminal delivers keys read together.
  package func send(_ keys: Key...) {
    send(keys: keys)
  }

  /// Sends keys as one batch.
  package func send(keys: [Key]) {
    outlet.send(.keys(keys))
  }

  /// Sends `text` as the keys a terminal reports for it, in one batch, as a paste arrives:
  /// `"\r"` is Enter, `"\u{1B}"` Escape, `"\u{7F}"` Backspace.
  package func type(_ text: String) {
    send(keys: text.unicodeScalars.map(Key.init(typed:)))
  }

  /// Changes the size and reports the change, as a terminal window being resized.
  package func resize(to size: TerminalSize) {
    self.size = size
    outlet.send(.resized(size))
  }

  /// Reports a signal, as if the process had received it.
  package func send(signal: Int32) {
    outlet.send(.signal(signal))
  }

  /// Ends the events, as a terminal whose input has closed.
  package func closeInput() {
    outlet.send(.inputClosed)
  }

  /// Returns the last frame if it satisfies `condition`, or else the first frame drawn
  /// later that does.
  ///
  /// - Parameter timeout: Bounds a failure only; a matching draw returns at once.
  /// - Throws: ``FrameTimeoutError`` with the last frame drawn.
  @discardableResult
  package func waitForFrame(
    timeout: Duration = AppFailureBound.standard,
    where condition: @escaping (Frame) -> Bool
  ) async throws -> Frame {
    if let last = frames.last, condition(last) { return last }
    nextWaiter += 1
    let id = nextWaiter
    // A work item on the main queue, not a task: a wait costs no task and no hop.
    let expiry = DispatchWorkItem { [weak self] in
      MainActor.assumeIsolated { self?.expire(id) }
    }
    let deadline = DispatchTime.now() + .nanoseconds(timeout.dispatchNanoseconds)
    DispatchQueue.main.asyncAfter(deadline: deadline, execute: expiry)  // failure bound
    defer { expiry.cancel() }
    let frame = await withCheckedContinuation {
      (continuation: CheckedContinuation<Frame?, Never>) in
      waiters.append((id, condition, { continuation.resume(returning: $0) }))
    }
    guard let frame else {
      throw FrameTimeoutError(timeout: timeout, lastFrame: frames.last)
    }
    return frame
  }

  private func expire(_ id: Int) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).resume(nil)
  }
}

/// Thrown by ``VirtualTerminal/waitForFrame(timeout:where:)`` when no frame matched in time.
package struct FrameTimeoutError: Error, CustomStringConvertible {
  /// How long the wait lasted.
  package let timeout: Duration
  /// The last frame drawn, if any.
  package let lastFrame: Frame?

  package var description: String {
    let screen = lastFrame.map { $0.lines.map { "|\($0)" }.joined(separator: "\n") } ?? "(none)"
    return "No matching frame was drawn within \(timeout). Last frame:\n\(screen)"
  }
}
