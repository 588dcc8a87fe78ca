import Foundation
import NumberFactCore
import Observation
import TaskProviding

/// Connects a terminal to the feature: keys become model actions, and the screen is redrawn
/// when the model changes, when the terminal is resized, and on spinner ticks. Nothing else
/// wakes it, so an idle app uses no CPU.
///
/// Get-fact requests and the spinner are spawned through the task provider, so a test can
/// await or step them; the spinner sleeps on the injected clock, so a test advances it.
@MainActor
public final class RenderLoop {
  /// Why ``run()`` returned.
  public enum ExitReason: Hashable, Sendable {
    /// The person quit (`q` or Ctrl-C).
    case quit
    /// A signal asked the app to stop.
    case signal(Int32)
    /// The terminal's input ended.
    case inputClosed
  }

  private enum Event: Sendable {
    case terminal(TerminalEvent)
    case modelChanged
    case tick(Int)
    case backOffEnded
    case inputClosed
  }

  private let model: NumberFactFeature
  private let terminal: any Terminal
  private let taskProvider: any TaskProvider
  /// Starts a spinner's timeline now; the result sleeps until the timeline's nth tick.
  private let startTimeline: @MainActor () -> @Sendable (Int) async throws -> Void
  /// Starts a countdown of a duration now, on the injected clock; the result sleeps until it
  /// ends.
  private let startCountdown: @MainActor (Duration) -> @Sendable () async throws -> Void

  /// What the screen shows, apart from the model.
  public private(set) var viewState = ViewState()
  /// The last fact the screen showed, even if a later key cleared it: what `--print`
  /// leaves on standard output after the app ends.
  public private(set) var lastFactShown: NumberFact?
  private var lastFrame: Frame?
  private var spinner: Task<Void, Never>?
  /// Wakes the loop when the offline mark's time has come, so the mark goes with it.
  private var offlineTimer: Task<Void, Never>?
  /// The time the mark on screen names, which ``offlineTimer`` waits for.
  private var offlineTimerTarget: Date?
  private var continuation: AsyncStream<Event>.Continuation?
  /// Whether an observation of the model is registered and has not fired yet. Registering
  /// another on every render would leave one more behind per key press, each firing on the
  /// next change: the work per press would grow with the number of presses.
  private var isObservingModel = false
  /// Renders so far, for tests that check the work per event stays constant.
  private(set) var renderCount = 0

  /// Creates a loop; nothing happens until ``run()``.
  ///
  /// - Parameters:
  ///   - model: The feature the keys drive.
  ///   - terminal: Where frames go and keys come from.
  ///   - clock: What the spinner sleeps on: `ContinuousClock` in the app, a test clock in
  ///     tests.
  ///   - taskProvider: Spawns the get-fact taps and the spinner.
  ///   - spinnerInterval: Time between spinner frames.
  public init<C: Clock<Duration>>(
    model: NumberFactFeature,
    terminal: any Terminal,
    clock: C,
    taskProvider: any TaskProvider,
    spinnerInterval: Duration = .milliseconds(100)
  ) {
    self.model = model
    self.terminal = terminal
    self.taskProvider = taskProvider
    self.startCountdown = { duration in
      // From now, not from when the task first sleeps, and a nanosecond early: as the
      // spinner's deadlines, for a test clock advanced before the task sleeps.
      let deadline = clock.now.advanced(by: duration - .nanoseconds(1))
      return { try await clock.sleep(until: deadline, tolerance: nil) }
    }
    self.startTimeline = {
      // Deadlines count from the moment loading was seen, not from when the spinner task
      // first sleeps: a test that advances the clock to a deadline gets its tick even if
      // the task had not started sleeping yet. They sit a nanosecond early because a test
      // clock keeps a sleep whose deadline equals "now" suspended until it advances again.
      let start = clock.now
      return { tick in
        let deadline = start.advanced(by: spinnerInterval * tick - .nanoseconds(1))
        try await clock.sleep(until: deadline, tolerance: nil)
      }
    }
  }

  /// Draws the first frame, then handles events until the person quits, a signal arrives
  /// or the input ends. On the way out it cancels the request in flight and the spinner.
  public func run() async -> ExitReason {
    let (events, continuation) = AsyncStream.makeStream(of: Event.self)
    self.continuation = continuation
    let terminalEvents = terminal.events
    return await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await event in terminalEvents { continuation.yield(.terminal(event)) }
        continuation.yield(.inputClosed)
      }
      render()
      var reason = ExitReason.inputClosed
      loop: for await event in events {
        switch event {
        case .terminal(.keys(let keys)):
          for key in keys {
            if viewState.prompt != nil, key != .control("c") {
              typeIntoPrompt(key)
              continue
            }
            guard let action = KeyMap.action(for: key) else { continue }
            guard action != .quit else {
              reason = .quit
              break loop
            }
            if action == .typeNumber {
              // A digit opens the prompt and is its first character; `g` opens it empty.
              if case .character(let digit) = key, digit.isWholeNumber {
                viewState.prompt = NumberPrompt(String(digit))
              } else {
                viewState.prompt = NumberPrompt()
              }
              viewState.showsHelp = false
              continue
            }
            perform(action)
          }
        case .terminal(.resized):
          break
        case .terminal(.signal(let signal)):
          reason = .signal(signal)
          break loop
        case .modelChanged:
          isObservingModel = false
        case .tick(let tick):
          if spinner != nil { viewState.spinnerFrame = tick }
        case .backOffEnded:
          model.backOffMayHaveEnded()
        case .inputClosed:
          break loop
        }
        render()
      }
      model.cancelButtonTapped()
      stopSpinner()
      offlineTimer?.cancel()
      continuation.finish()
      self.continuation = nil
      group.cancelAll()
      return reason
    }
  }

  /// What a key's action does. Any action but the help key closes the help.
  private func perform(_ action: Action) {
    if action != .toggleHelp { viewState.showsHelp = false }
    viewState.notice = nil
    switch action {
    case .increment: model.incrementButtonTapped()
    case .decrement: model.decrementButtonTapped()
    case .getFact:
      let model = model
      taskProvider.task(name: "get fact") { await model.getFactButtonTapped() }
    case .cancel: model.cancelButtonTapped()
    case .nextKind: model.nextKindButtonTapped()
    case .toggleHelp: viewState.showsHelp.toggle()
    case .suspend: terminal.suspend()
    case .repaint: terminal.repaint()
    case .copyFact:
      if let fact = model.state.fact {
        terminal.copyToClipboard(FactView.plainText(of: fact))
        viewState.notice = "Copied the fact to the clipboard."
      } else {
        viewState.notice = "No fact to copy yet: f gets one."
      }
    case .random:
      let model = model
      taskProvider.task(name: "random") { await model.randomButtonTapped() }
    case .askNetwork:
      let model = model
      taskProvider.task(name: "ask the network") { await model.askNetworkNowTapped() }
    case .previousFact: model.previousFactButtonTapped()
    case .nextFact: model.nextFactButtonTapped()
    case .oldestFact: model.oldestFactButtonTapped()
    case .newestFact: model.newestFactButtonTapped()
    case .stepUp: model.countStepped(by: 100)
    case .stepDown: model.countStepped(by: -100)
    case .typeNumber, .quit: break
    }
  }

  /// A key while the number prompt is open: it edits the prompt, and Enter goes there.
  private func typeIntoPrompt(_ key: Key) {
    guard var prompt = viewState.prompt else { return }
    switch prompt.handle(key) {
    case .editing:
      viewState.prompt = prompt
    case .cancelled:
      viewState.prompt = nil
    case .submitted(let number):
      viewState.prompt = nil
      let model = model
      taskProvider.task(name: "go to \(number)") { await model.numberEntered(number) }
    }
  }

  /// Lays out the current state and draws it if it differs from what is on screen, and
  /// asks to hear about the next change to the model.
  private func render() {
    renderCount += 1
    let state: NumberFactFeature.State
    if isObservingModel {
      state = model.state
    } else {
      isObservingModel = true
      let continuation = continuation
      state = withObservationTracking {
        _ = model.historyPosition
        return model.state
      } onChange: {
        continuation?.yield(.modelChanged)
      }
    }
    // The age of a stored fact is told as of when it appeared, not re-read at each frame.
    if state.fact != viewState.feature.fact {
      viewState.now = state.fact?.source == .stored ? Date() : nil
      viewState.notice = nil
      if let fact = state.fact { lastFactShown = fact }
    }
    viewState.feature = state
    viewState.historyPosition = model.historyPosition
    if state.isLoading { startSpinner() } else { stopSpinner() }
    if state.offlineUntil != offlineTimerTarget { scheduleOfflineTimer(for: state.offlineUntil) }
    let frame = FactView.frame(for: viewState, size: terminal.size)
    guard frame != lastFrame else { return }
    terminal.draw(frame)
    lastFrame = frame
  }

  private func startSpinner() {
    guard spinner == nil, let continuation else { return }
    let sleep = startTimeline()
    spinner = taskProvider.task(name: "spinner") {
      var tick = 0
      while true {
        tick += 1
        do { try await sleep(tick) } catch { return }
        continuation.yield(.tick(tick))
      }
    }
  }

  /// Sleeps, on the loop's clock, for what is left of the client's back-off, then has the
  /// model read it again: nothing ticks while the mark is up.
  private func scheduleOfflineTimer(for target: Date?) {
    offlineTimer?.cancel()
    offlineTimer = nil
    offlineTimerTarget = target
    guard target != nil, let remaining = model.backOffRemaining, let continuation else { return }
    let countdown = startCountdown(remaining)
    offlineTimer = taskProvider.task(name: "offline mark") {
      do { try await countdown() } catch { return }
      continuation.yield(.backOffEnded)
    }
  }

  private func stopSpinner() {
    spinner?.cancel()
    spinner = nil
    viewState.spinnerFrame = 0
  }
}
