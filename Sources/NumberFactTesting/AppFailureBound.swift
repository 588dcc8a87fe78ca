/// How long the app's test doubles wait before they call a wait a failure: a request no test
/// answered, a write or request that never came, a frame never drawn.
///
/// Only a failing test reaches it, so its length delays a failure's report and slows no
/// passing test. It is long because a suite started at once on two loaded cores queues its
/// jobs, most of all the main actor's, for seconds; a shorter bound failed passing tests there.
package enum AppFailureBound {
  /// The bound every wait of the app's test doubles takes unless a test names its own.
  package static let standard: Duration = .seconds(30)
}
