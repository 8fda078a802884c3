// The pixel loops as a Raspberry Pi's build makes them: Sources/KioskPixels/pixels.c compiled for
// AArch64 by this toolchain's clang with the package's flags (-O2), into a small program
// (Tests/CrossPixels/harness.c) that qemu-user runs here. Every byte it gives must be what the
// definition says, as on this machine: a miscompiled or wrongly vectorised loop on ARM would turn
// every take's colours, and nothing else in the suite runs ARM code.
import Foundation
import Testing
import KioskCapture
import KioskCore
import KioskTestSupport

/// The cross build: what it needs, and the harness built once for the suite.
enum CrossPixels {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The C compiler of the Swift toolchain on PATH: the one `swift build` compiles pixels.c with.
    static let clang: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/opt/swift/usr/bin"]
        return folders.first { FileManager.default.isExecutableFile(atPath: $0 + "/swift") && FileManager.default.isExecutableFile(atPath: $0 + "/clang") }
            .map { $0 + "/clang" }
    }()
    static let qemu: String? = ["qemu-aarch64-static", "qemu-aarch64"].lazy.compactMap { ProgramPath.find($0) }.first
    /// Debian's AArch64 C library for cross builds (libc6-dev-arm64-cross): the harness links statically.
    static let sysroot = "/usr/aarch64-linux-gnu"
    static var missing: [String] {
        var missing: [String] = []
        if clang == nil { missing.append("the Swift toolchain's clang") }
        if qemu == nil { missing.append("qemu-aarch64-static (Debian: qemu-user-static)") }
        if !FileManager.default.fileExists(atPath: sysroot + "/lib/crt1.o") { missing.append("AArch64 libc (Debian: libc6-dev-arm64-cross)") }
        return missing
    }
    static let skipNote: Comment = "needs qemu-user-static and libc6-dev-arm64-cross (kiosk/setup --test)"

    /// The harness for AArch64, built once; or why it could not be.
    static let harness: Result<String, CrossBuildError> = {
        guard missing.isEmpty, let clang else { return .failure(CrossBuildError(text: "missing: \(missing.joined(separator: ", "))")) }
        // Beside this build's other products (rebuilt by every run, from the sources as they are).
        let output = TestEnvironment.buildFolder.appendingPathComponent("cross-pixels-aarch64").path
        let run = try? runProgram([clang, "--target=aarch64-linux-gnu", "-O2", "-static", "-fuse-ld=lld",
                                   "-I", root.path + "/Sources/KioskPixels/include",
                                   root.path + "/Tests/CrossPixels/harness.c", root.path + "/Sources/KioskPixels/pixels.c", "-o", output])
        guard let run, run.status == 0 else { return .failure(CrossBuildError(text: "the AArch64 build failed: \(run?.stderr ?? "clang did not run")")) }
        return .success(output)
    }()

    /// Where `got` differs from `want` (how many bytes, the first), or nil: short enough to read.
    static func difference(_ got: [UInt8], _ want: [UInt8]) -> String? {
        guard got.count == want.count else { return "\(got.count) bytes, not \(want.count)" }
        let wrong = zip(got, want).enumerated().filter { $0.element.0 != $0.element.1 }
        guard let first = wrong.first else { return nil }
        return "\(wrong.count) of \(got.count) bytes differ, the first at \(first.offset): \(first.element.0), not \(first.element.1)"
    }

    /// Runs the harness under qemu with `arguments`, `input` in a file; returns what it wrote.
    static func run(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let program = try harness.get()
        let name = NSTemporaryDirectory() + "kiosk-cross-pixels-" + UUID().uuidString
        let inPath = name + ".in", outPath = name + ".out"
        try Data(input).write(to: URL(fileURLWithPath: inPath))
        defer { unlink(inPath); unlink(outPath) }
        let run = try runProgram([try #require(qemu), program] + arguments + [inPath, outPath])
        try #require(run.status == 0, "harness \(arguments): \(run.stderr)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: outPath)))
    }
}

struct CrossBuildError: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

/// A program on PATH.
enum ProgramPath {
    static func find(_ program: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

@Suite("Pixel loops built for AArch64, run under qemu-user",
       .enabled(if: CrossPixels.missing.isEmpty || TestEnvironment.isCI, CrossPixels.skipNote))
struct CrossPixelsTests {
    @Test("the harness is built for AArch64 by the toolchain's clang, and its YUYV and range loops are vectorised (NEON)")
    func builtForAArch64() throws {
        try #require(CrossPixels.missing.isEmpty, "CI is set, so this does not skip: \(CrossPixels.missing.joined(separator: ", "))")
        let program = try CrossPixels.harness.get()
        let header = try #require(FileHandle(forReadingAtPath: program)).readData(ofLength: 20)
        // ELF, e_machine 183 (EM_AARCH64) at offset 18, little-endian.
        #expect(header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]) && header[18] == 183 && header[19] == 0)
        let objdump = URL(fileURLWithPath: try #require(CrossPixels.clang)).deletingLastPathComponent().appendingPathComponent("llvm-objdump").path
        // What the loops compile to: the interleaved loads and rounding averages of NEON.
        let wanted = ["kiosk_yuyv_luma_row": ["ld2"], "kiosk_yuyv_chroma_rows": ["ld4", "urhadd"], "kiosk_chroma_rows": ["urhadd", "umlal"]]
        for (function, instructions) in wanted {
            let listing = try runProgram([objdump, "-d", "--disassemble-symbols=\(function)", program]).stdout
            for instruction in instructions {
                #expect(listing.split(whereSeparator: { $0 == "\t" || $0 == " " || $0 == "\n" }).contains { $0 == instruction },
                        "\(function) has no \(instruction): the loop is not vectorised for AArch64")
            }
        }
    }

    // Widths for 16- and 32-byte vector steps and their scalar tails, padded rows, odd heights.
    @Test("a YUYV picture made 4:2:0 on AArch64 gives every byte the definition gives",
          arguments: [Size(width: 50, height: 9), Size(width: 70, height: 37), Size(width: 102, height: 11),
                      Size(width: 180, height: 5), Size(width: 640, height: 480), Size(width: 1920, height: 3)])
    func yuyv(size: Size) throws {
        try #require(CrossPixels.missing.isEmpty, "CI is set, so this does not skip: \(CrossPixels.missing.joined(separator: ", "))")
        let pitch = 2 * size.width + 24
        let source = YUYVDefinition.picture(size, pitch: pitch)
        let out = try CrossPixels.run(["yuyv", "\(size.width)", "\(size.height)", "\(pitch)"], input: source)
        #expect(CrossPixels.difference(out, YUYVDefinition.expected(source, pitch: pitch, size: size)) == nil, "\(size)")
    }

    @Test("a full-range picture's rows made video range on AArch64 (as an MJPEG camera's are) give every byte the definition gives",
          arguments: [1, 15, 16, 17, 33, 256, 1921])
    func rows(count: Int) throws {
        try #require(CrossPixels.missing.isEmpty, "CI is set, so this does not skip: \(CrossPixels.missing.joined(separator: ", "))")
        // At 256: every value, against every value backwards; otherwise pseudo-random rows.
        var state: UInt32 = 0x9E3779B9 &+ UInt32(count)
        let a: [UInt8] = count == 256 ? (0...255).map { UInt8($0) } : (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let b: [UInt8] = count == 256 ? a.reversed() : a.map { $0 &* 37 &+ 11 }
        let out = try CrossPixels.run(["rows", "\(count)"], input: a + b)
        // y' = round(16 + 219 y / 255) and c' = round(128 + 224 (c - 128) / 255) (never a half: 255 is odd
        // and the numerators whole); the two rows averaged rounding half up.
        func luma(_ y: Int) -> UInt8 { UInt8((16 + 219 * Double(y) / 255).rounded()) }
        func chroma(_ c: Int) -> UInt8 { UInt8((128.0 + 224.0 * Double(c - 128) / 255.0).rounded()) }
        let average = zip(a, b).map { (Int($0) + Int($1) + 1) / 2 }
        let want = a.map { luma(Int($0)) } + a.map { chroma(Int($0)) } + average.map(chroma) + average.map { UInt8($0) } + a
        for (part, name) in ["luma", "chroma", "chroma rows averaged", "rows averaged", "luma copied"].enumerated() {
            let range = (part * count)..<((part + 1) * count)
            #expect(CrossPixels.difference(Array(out[range]), Array(want[range])) == nil, "\(name), \(count) samples")
        }
    }

    @Test("an overlay's blend on AArch64 (NEON) gives every byte the definition gives", arguments: [15, 16, 33, 4096])
    func blend(count: Int) throws {
        try #require(CrossPixels.missing.isEmpty, "CI is set, so this does not skip: \(CrossPixels.missing.joined(separator: ", "))")
        let (picture, over, alpha) = BlendDefinition.samples(count)
        let out = try CrossPixels.run(["blend", "\(count)"], input: picture + over + alpha)
        #expect(CrossPixels.difference(out, BlendDefinition.expected(picture, over, alpha)) == nil, "\(count) samples")
    }
}
