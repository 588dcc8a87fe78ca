#if !(canImport(Glibc) && canImport(Dispatch))
  /// Elsewhere work runs on the caller's thread: the per-thread cache of ELF images that the
  /// Linux thread keeps warm is not what the runtime symbolicates with there.
  final class ResidentThread: Sendable {
    /// The thread every symbolication runs on: the caller's.
    static let symbolication = ResidentThread()

    private init() {}

    /// `work`'s result, computed now.
    func run<R: Sendable>(_ work: @escaping @Sendable () -> R) -> R { work() }
  }
#endif
