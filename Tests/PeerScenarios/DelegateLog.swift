import DequeModule
import NIOConcurrencyHelpers
import NIOCore

/// What a producer's or a writer's delegate was told, in order.
package final class DelegateLog: NIOAsyncSequenceProducerDelegate, NIOAsyncWriterSinkDelegate,
  Sendable
{
  package typealias Element = Int

  package init() {}
  package let calls = NIOLockedValueBox<[String]>([])
  package let written = NIOLockedValueBox<[Int]>([])

  package func produceMore() { calls.withLockedValue { $0.append("produceMore") } }
  package func didTerminate() { calls.withLockedValue { $0.append("didTerminate") } }
  package func didYield(contentsOf sequence: Deque<Int>) {
    written.withLockedValue { $0.append(contentsOf: sequence) }
  }
  package func didTerminate(error: (any Error)?) {
    calls.withLockedValue { $0.append("didTerminate") }
  }

  /// How many times `didTerminate` came, and whether `produceMore` came after it.
  package var terminations: Int { calls.withLockedValue { $0.count { $0 == "didTerminate" } } }
  package var producedMoreAfterTermination: Bool {
    calls.withLockedValue { calls in
      guard let end = calls.firstIndex(of: "didTerminate") else { return false }
      return calls[end...].contains("produceMore")
    }
  }
}
