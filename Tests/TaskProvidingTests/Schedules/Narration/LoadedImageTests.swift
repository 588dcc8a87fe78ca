#if os(Linux) && canImport(Glibc) && (arch(x86_64) || arch(arm64)) && !TP_NO_SYMBOLICATION
  import Glibc
  import Runtime
  import SuiteSupport
  import Testing

  @testable import TaskProvidingTesting

  /// The image map the explorer names frames with comes from the loader's list, never from a
  /// scan of every mapped file: a file unmapped during such a scan crashed the test process.
  @Suite(.timeLimit(.minutes(3))) struct LoadedImageTests {
    @Test func theLoaderListHasTheProgramAndTheRuntime() throws {
      let images = LoadedImage.all()
      let program = try #require(images.first { $0.path.hasSuffix(".xctest") })
      #expect(!program.buildID.isEmpty)
      #expect(program.endOfText > program.baseAddress)
      #expect(images.contains { $0.path.hasSuffix("/libswiftCore.so") })
      #expect(images.map(\.baseAddress) == images.map(\.baseAddress).sorted())
      #expect(!images.contains { $0.path.contains("vdso") })
    }

    @Test func theCompactMapDecodesToTheSameImages() throws {
      let images = LoadedImage.all()
      let decoded = try #require(Symbolicator.images)
      // The test process may load a library between the two reads, never unload one.
      let decodedPaths = Set(decoded.compactMap(\.path))
      for image in images {
        #expect(decodedPaths.contains(image.path))
      }
      for image in decoded {
        let path = try #require(image.path)
        guard let loaded = images.first(where: { $0.path == path }) else { continue }
        #expect(UInt64(image.baseAddress) == loaded.baseAddress)
        #expect(UInt64(image.endOfText) == loaded.endOfText)
        #expect((image.uniqueID ?? []) == loaded.buildID)
        #expect(image.name == path.split(separator: "/").last.map(String.init))
      }
    }

    /// In a process of its own, where nothing maps or unmaps files meanwhile, the runtime's
    /// own capture is safe: the two agree on every image the loader loaded.
    @Test(.exitTestThread) func theLoaderListAgreesWithTheRuntimesCapture() async {
      await #expect(processExitsWith: .success) {
        let captured = ImageMap.capture()
        for image in LoadedImage.all() {
          guard let match = captured.first(where: { $0.path == image.path }),
            UInt64(match.baseAddress) == image.baseAddress,
            UInt64(match.endOfText) == image.endOfText,
            (match.uniqueID ?? []) == image.buildID
          else { exit(1) }
        }
      }
    }

    /// A file mapped with no access at all, as a database's shared memory is between its
    /// mapping and its unmapping: reading its first bytes faults. The loader's list never
    /// reads it.
    @Test(.exitTestThread) func aFileMappedWithoutAccessIsNeverRead() async {
      await #expect(processExitsWith: .success) {
        var template = Array("/tmp/numberfact-mapped-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0, ftruncate(descriptor, 4096) == 0,
          let mapped = mmap(nil, 4096, PROT_NONE, MAP_SHARED, descriptor, 0),
          mapped != MAP_FAILED
        else { exit(2) }
        let path = String(
          decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let images = LoadedImage.all()
        guard !images.contains(where: { $0.path == path }), Symbolicator.images != nil else {
          exit(1)
        }
      }
    }
  }
#endif
