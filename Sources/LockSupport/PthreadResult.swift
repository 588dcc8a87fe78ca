/// What a pthread call returned, checked: a lock that fails to lock, unlock or be made is a
/// broken invariant (a lock taken twice on one thread, a corrupted lock), not an error a
/// caller can handle, so it stops the program and says which call failed, as swift-nio's
/// locks do.
@usableFromInline
enum PthreadResult {
  @inlinable @inline(__always)
  static func check(_ code: Int32, _ call: StaticString) {
    precondition(code == 0, "\(call) failed with error \(code)")
  }
}
