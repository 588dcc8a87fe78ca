import Foundation
import NumberFactFuzzing

#if NUMBERFACT_LIBFUZZER
  import CFuzzerDriver
#endif

/// `numberfact-fuzz TARGET [libFuzzer flags] [corpus directories]`.
///
/// TARGET may instead be in `NUMBERFACT_FUZZ_TARGET`: libFuzzer runs itself again without
/// it (to minimize a crash, or with `-fork`), and the variable is how the target carries
/// over.
///
/// Built with `-sanitize=fuzzer -DNUMBERFACT_LIBFUZZER`, it fuzzes TARGET with libFuzzer.
/// Built plainly, it runs TARGET once on every file named, or in the directories named: the
/// seed corpus and the crashes kept as regression inputs.
@main
enum FuzzMain {
  static func main() {
    let arguments = CommandLine.arguments
    let named = arguments.count >= 2 ? FuzzTarget(rawValue: arguments[1]) : nil
    let inherited = ProcessInfo.processInfo.environment["NUMBERFACT_FUZZ_TARGET"].flatMap(
      FuzzTarget.init(rawValue:))
    guard let target = named ?? inherited else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      FileHandle.standardError.write(
        Data("usage: numberfact-fuzz TARGET [inputs…]; TARGET is one of \(names)\n".utf8))
      exit(64)
    }
    #if NUMBERFACT_LIBFUZZER
      setenv("NUMBERFACT_FUZZ_TARGET", target.rawValue, 1)
      exit(fuzz(target, skippingFirstArgument: named != nil))
    #else
      let inputs = arguments.dropFirst(named != nil ? 2 : 1)
      exit(replay(target, inputs.filter { !$0.hasPrefix("-") }))
    #endif
  }

  /// Runs `target` once on each file in `paths`, a directory standing for its files.
  static func replay(_ target: FuzzTarget, _ paths: some Sequence<String>) -> Int32 {
    var count = 0
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("numberfact-fuzz: no file \(path)\n".utf8))
        return 66
      }
      let files =
        isDirectory.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
          path + "/" + $0
        } : [path]
      for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        target.run(data)
        count += 1
      }
    }
    print("\(target.rawValue): \(count) inputs, all held")
    return 0
  }
}

#if NUMBERFACT_LIBFUZZER
  /// The target libFuzzer's callback runs: set once, before the driver starts.
  nonisolated(unsafe) private var selected = FuzzTarget.sanitizer

  /// Hands the arguments after TARGET to libFuzzer's driver, which runs until a property
  /// fails or a limit it was given is reached.
  private func fuzz(_ target: FuzzTarget, skippingFirstArgument: Bool) -> Int32 {
    selected = target
    let first = skippingFirstArgument ? 2 : 1
    var arguments: [UnsafeMutablePointer<CChar>?] =
      [CommandLine.unsafeArgv[0]]
      + (first..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0] } + [nil]
    var count = Int32(arguments.count - 1)
    return arguments.withUnsafeMutableBufferPointer { buffer in
      var argv = buffer.baseAddress
      return LLVMFuzzerRunDriver(&count, &argv) { data, size in
        selected.run(Data(bytes: data!, count: size))
        return 0
      }
    }
  }
#endif
