// Whether this test run is instrumented by ThreadSanitizer.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this process runs under ThreadSanitizer (`swift test --sanitize=thread`).
///
/// Under it, code runs several times slower and a process maps gigabytes of shadow memory, so
/// the suite measures nothing about time or memory there, and runs its repetitions fewer times:
/// that pass looks for data races, the plain one for everything else.
public enum ThreadSanitizer {
  /// Whether the ThreadSanitizer runtime is loaded.
  public static let isActive = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

  /// A test's time limit in minutes: `plain`, or ten times it under the sanitizer, where
  /// explorations run several times slower and wait in line for the main actor.
  public static func minutes(_ plain: Int) -> Int { isActive ? plain * 10 : plain }
}
