/// What a pthread call returned, checked: a lock that fails to lock, unlock or be made is a
/// broken invariant (a corrupted or uninitialized lock, a lock the system could not make), not
/// an error a caller can handle, so it stops the program and says which call failed, as
/// swift-nio's locks do. A default mutex taken twice on one thread deadlocks rather than fail,
/// on glibc and Darwin alike.
@usableFromInline
enum PthreadResult {
  // Transparent: every lock and unlock checks a result, which is one comparison where it is
  // inlined. The failure is a call of its own, so the message is built only then.
  @usableFromInline @_transparent
  static func check(_ code: Int32, _ call: StaticString) {
    if code != 0 { fail(code, call) }
  }

  @usableFromInline @inline(never)
  static func fail(_ code: Int32, _ call: StaticString) -> Never {
    preconditionFailure("\(call) failed with error \(code)")
  }
}
