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
package final class RenderLoop {
  /// Why ``run()`` returned.
  package enum ExitReason: Hashable, Sendable {
    /// The person quit (`q` or Ctrl-C).
    case quit
    /// A signal asked the app to stop.
    case signal(Int32)
    /// The terminal's input ended.
    case inputClosed
  }

  /// What the loop's one stream carries: the terminal's events, the loop's own timers' (as
  /// the update takes them), and a change of the model, read only if no key read it first.
  private enum Event: Sendable {
    case terminal(TerminalEvent)
    case timer(AppEvent)
    case modelChanged
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
  package private(set) var viewState = ViewState()
  /// The last fact the screen showed, even if a later key cleared it: what `--print`
  /// leaves on standard output after the app ends.
  package private(set) var lastFactShown: NumberFact?
  private var lastFrame: Frame?
  private var spinner: Task<Void, Never>?
  /// Wakes the loop when the offline mark's time has come, so the mark goes with it.
  private var offlineTimer: Task<Void, Never>?
  /// Every spinner and offline timer not yet ended, cancelled or not, by number: the loop
  /// waits for them all on the way out, so that none outlives it.
  private var liveTimers: [Int: Task<Void, Never>] = [:]
  private var timersStarted = 0
  private var continuation: AsyncStream<Event>.Continuation?
  /// Whether an observation of the model is registered and has not fired yet. Registering
  /// another on every render would leave one more behind per key press, each firing on the
  /// next change: the work per press would grow with the number of presses.
  private var isObservingModel = false
  /// Whether the model has changed since it was last read.
  private var modelChangedSinceRender = false
  /// Frames laid out so far, for tests that check the work per event stays constant.
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
  package init<C: Clock<Duration>>(
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
  /// or the input ends. On the way out it cancels the request in flight, and cancels and
  /// waits for the spinner and the offline mark's timer.
  ///
  /// Every event comes through one stream, read on the main actor: a key reaches the loop
  /// in one hop from the terminal. Each event goes through ``AppUpdate``, whose effects the
  /// loop carries out; then the feature is read (another event for ``AppUpdate``) and the
  /// view state is drawn, once per event.
  package func run() async -> ExitReason {
    let (events, continuation) = AsyncStream.makeStream(of: Event.self)
    self.continuation = continuation
    terminal.start { event in continuation.yield(.terminal(event)) }
    readModel()
    draw()
    var reason = ExitReason.inputClosed
    loop: for await event in events {
      switch event {
      case .terminal(.keys(let keys)):
        for key in keys {
          guard handle(.key(key)) else {
            reason = .quit
            break loop
          }
        }
      case .terminal(.resized(let size)):
        handle(.resized(size))
      case .terminal(.signal(let signal)):
        reason = .signal(signal)
        break loop
      case .terminal(.inputClosed):
        break loop
      case .modelChanged:
        // A change a key made was read with the key's own frame.
        guard modelChangedSinceRender else { continue }
      case .timer(let event):
        handle(event)
      }
      readModel()
      draw()
    }
    model.cancelButtonTapped()
    stopSpinner()
    offlineTimer?.cancel()
    offlineTimer = nil
    continuation.finish()
    self.continuation = nil
    // Waited for, so that nothing the loop started outlives it: a caller that checks its
    // tasks once the loop has returned finds none still running.
    for timer in liveTimers.values { await timer.value }
    return reason
  }

  /// Updates the view state with `event` and carries out what it asks; `false` when it asks
  /// the app to quit.
  @discardableResult
  private func handle(_ event: AppEvent) -> Bool {
    for effect in AppUpdate.update(&viewState, on: event, size: terminal.size) {
      guard run(effect) else { return false }
    }
    return true
  }

  /// Carries out what an update asked of the feature, the terminal or the loop; `false` when
  /// it asks the loop to end.
  private func run(_ effect: AppEffect) -> Bool {
    switch effect {
    case .perform(let action): return perform(action)
    case .goTo(let number): model.requestFact(about: number)
    case .copy(let text): terminal.copyToClipboard(text)
    case .startSpinner: startSpinner()
    case .stopSpinner: stopSpinner()
    case .watchBackOff(let until): watchBackOff(until: until)
    case .rereadBackOff: model.backOffMayHaveEnded()
    }
    return true
  }

  /// A key binding's action, on the feature or the terminal; `false` for the one that ends
  /// the loop.
  private func perform(_ action: Action) -> Bool {
    switch action {
    case .increment: model.incrementButtonTapped()
    case .decrement: model.decrementButtonTapped()
    case .stepUp: model.countStepped(by: 100)
    case .stepDown: model.countStepped(by: -100)
    case .getFact: model.requestFact()
    case .random: model.requestRandomFact()
    case .askNetwork: model.requestFactFromNetwork()
    case .cancel: model.cancelButtonTapped()
    case .nextKind: model.nextKindButtonTapped()
    case .previousFact: model.previousFactButtonTapped()
    case .nextFact: model.nextFactButtonTapped()
    case .oldestFact: model.oldestFactButtonTapped()
    case .newestFact: model.newestFactButtonTapped()
    case .suspend: terminal.suspend()
    case .repaint: terminal.repaint()
    case .quit: return false
    // The update keeps these for itself: they change only the screen's state.
    case .toggleHelp, .copyFact, .typeNumber, .scrollDown, .scrollUp: break
    }
    return true
  }

  /// Reads the feature, asking to hear about its next change, and updates the view state
  /// with it.
  private func readModel() {
    modelChangedSinceRender = false
    let read = { [model] in (model.state, model.historyPosition) }
    let (state, position): (NumberFactFeature.State, HistoryPosition?)
    if isObservingModel {
      (state, position) = read()
    } else {
      isObservingModel = true
      let continuation = continuation
      (state, position) = withObservationTracking(read) { [weak self] in
        // Called as the model is about to change, on the main actor that changes it: the
        // change is read by whatever comes next, a key's frame or this wake-up's.
        MainActor.assumeIsolated {
          self?.isObservingModel = false
          self?.modelChangedSinceRender = true
        }
        continuation?.yield(.modelChanged)
      }
    }
    handle(.model(state, position, now: Date()))
    if let fact = state.fact { lastFactShown = fact }
  }

  /// Draws the view state, unless its frame is the one on screen. It changes no state.
  private func draw() {
    renderCount += 1
    let frame = FactView.frame(for: viewState, size: terminal.size)
    guard frame != lastFrame else { return }
    terminal.draw(frame)
    lastFrame = frame
  }

  private func startSpinner() {
    guard spinner == nil, let continuation else { return }
    let sleep = startTimeline()
    spinner = track { number in
      self.taskProvider.task(name: "spinner") {
        defer { self.liveTimers[number] = nil }
        var tick = 0
        while true {
          tick += 1
          do { try await sleep(tick) } catch { return }
          continuation.yield(.timer(.tick(tick)))
        }
      }
    }
  }

  /// Sleeps, on the loop's clock, for what is left of the client's back-off, then has the
  /// model read it again: nothing ticks while the mark is up.
  private func watchBackOff(until target: Date?) {
    offlineTimer?.cancel()
    offlineTimer = nil
    guard target != nil, let remaining = model.backOffRemaining, let continuation else { return }
    let countdown = startCountdown(remaining)
    offlineTimer = track { number in
      self.taskProvider.task(name: "offline mark") {
        defer { self.liveTimers[number] = nil }
        do { try await countdown() } catch { return }
        continuation.yield(.timer(.backOffEnded))
      }
    }
  }

  /// Starts a timer task with `start`, given the number it is known by until it ends.
  private func track(_ start: (Int) -> Task<Void, Never>) -> Task<Void, Never> {
    timersStarted += 1
    let number = timersStarted
    let task = start(number)
    liveTimers[number] = task
    return task
  }

  private func stopSpinner() {
    spinner?.cancel()
    spinner = nil
  }
}
