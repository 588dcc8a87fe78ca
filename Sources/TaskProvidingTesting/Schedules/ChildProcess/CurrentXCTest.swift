#if os(Linux) && canImport(XCTest) && !TP_NO_CHILD_PROCESS
  import LockSupport
  import XCTest

  /// The XCTest test running now, named as the test binary's command line selects one test
  /// (`Module.Class/testMethod`), so that an exploration it calls can run it again alone in a
  /// child process.
  ///
  /// XCTest on Linux says which test runs only to its observers, and only as each test starts;
  /// so the observer is registered as the binary loads, before the first test starts.
  enum CurrentXCTest {
    /// The running test's selector, or `nil` outside an XCTest test.
    static var selector: String? { observer.selector.withLock { $0 } }

    fileprivate static let observer = Observer()

    fileprivate final class Observer: NSObject, XCTestObservation, Sendable {
      let selector = Locked<String?>(nil)

      func testCaseWillStart(_ testCase: XCTestCase) {
        // `name` is `Class.testMethod`; the command line wants the module-qualified class.
        let method = testCase.name.split(separator: ".").last.map(String.init) ?? testCase.name
        let selector = String(reflecting: type(of: testCase)) + "/" + method
        self.selector.withLock { $0 = selector }
      }

      func testCaseDidFinish(_ testCase: XCTestCase) {
        selector.withLock { $0 = nil }
      }
    }
  }

  // Runs as the binary loads, before XCTest starts its first test.
  @used @section(".init_array")
  private let registerCurrentXCTest: @convention(c) () -> Void = {
    XCTestObservationCenter.shared.addTestObserver(CurrentXCTest.observer)
  }
#endif
