import Dispatch
import SuiteSupport
import Testing

@testable import TaskProvidingTesting

/// Main-actor code that runs on the runtime's main queue while another test's scope is open:
/// a Dispatch source's handler on the main queue that calls `MainActor.assumeIsolated`, as a
/// terminal's key reader does. The scope answers the runtime's "which executor is the main
/// actor's", so its isolation check must accept the main queue, not only its driving thread.
@Suite struct MainQueueBesideScopeTests {
  @Test(.exitTestThread) func assumeIsolatedOnTheMainQueueHoldsWhileAScopeIsOpen() async {
    // A trap here would end the whole test run, so the check runs in a process of its own.
    await #expect(processExitsWith: .success) {
      guard let scope = JobScope.open() else { exitChild(2) }
      let answer = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
        DispatchQueue.main.async {
          done.resume(returning: MainActor.assumeIsolated { 42 })
        }
      }
      _ = scope.close()
      if answer != 42 { exitChild(1) }
    }
  }

  @Test func codeOffTheMainQueueAndOffTheDriverIsNotTheMainActors() async {
    let onMainQueue = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
      DispatchQueue.global().async { done.resume(returning: runsOnMainQueue()) }
    }
    #expect(!onMainQueue)
    let onMainQueueThere = await withCheckedContinuation {
      (done: CheckedContinuation<Bool, Never>) in
      DispatchQueue.main.async { done.resume(returning: runsOnMainQueue()) }
    }
    #expect(onMainQueueThere)
  }
}
