// A full disk, a refused start, and a take interrupted by a crash being kept at the next start.
import Foundation
import KioskContract
@testable import KioskStorage
import Testing
@testable import KioskMedia
import KioskCore
import KioskTestSupport

/// Whether this process may mount (kiosk/test runs the tests in a private mount namespace).
let canMount = ProcessInfo.processInfo.environment["KIOSK_FAKE_CAMERA"] == "1"

@Suite("Writer: disk and recovery")
struct DiskAndRecoveryTests {
    @Test("a start with less than the minimum free disk is refused with diskFull")
    func refusedStart() throws {
        let output = scratch("refuse").appendingPathComponent("take.mov").path
        var settings = MovieSettings(outputPath: output, videoSize: Size(width: 320, height: 240), fps: 30, audio: nil)
        settings.minFreeDisk = Int64.max / 2
        let writer = MovieWriter(settings: settings) { _ in Issue.record("nothing was started") }
        do {
            try writer.start()
            Issue.record("started")
        } catch {
            #expect(error.code == .diskFull)
            #expect(error.message.contains("free"))
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: output)))
    }

    @Test("a folder that does not exist is a recordingFailed error naming the file")
    func missingFolder() {
        let writer = MovieWriter(settings: MovieSettings(outputPath: "/nonexistent/dir/take.mov", videoSize: Size(width: 320, height: 240),
                                                         fps: 30, audio: nil)) { _ in }
        #expect(throws: RecordingStartError.self) { try writer.start() }
    }

    /// Records noise at 1280x720 into a 20 MiB tmpfs until the writer stops by itself. With `filler`,
    /// another program takes all but that many bytes of the disk after the first second.
    func fillTmpfs(minFreeDisk: Int64, filler: Int64? = nil) throws -> (RecordingResult, String) {
        let folder = scratch("tmpfs-\(minFreeDisk)")
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", folder.path])
        try #require(mount.status == 0, "mount: \(mount.stderr)")
        defer { _ = try? runProgram(["umount", folder.path]) }
        let output = folder.appendingPathComponent("take.mov").path
        let size = Size(width: 1280, height: 720)
        var settings = takeSettings(output, size: size)
        settings.minFreeDisk = minFreeDisk
        let (writer, finished) = try startedWriter(settings)
        var k = 0
        while finished.result.withLock({ $0 }) == nil && k < 3000 {
            if let filler, k == 30, let free = DiskSpace.available(at: output) {
                try Data(count: Int(max(free - filler, 0))).write(to: folder.appendingPathComponent("filler"))
            }
            let t = Int64(k) * 33_333_333
            writer.append(tone(at: t))
            writer.appendWaiting(noise(size, number: k, timestamp: t))
            k += 1
        }
        let result = try #require(finished.wait(seconds: 30))
        // Check the file before the tmpfs goes away.
        let decode = try runProgram(["ffmpeg", "-v", "error", "-i", output, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
        let info = try MovieProbe.inspect(output)
        #expect(info.videoPackets > 10 && abs(info.duration - result.duration) < 0.6)
        return (result, output)
    }

    @Test("on a 20 MiB tmpfs the free-space check stops the take with diskFull and a playable file",
          .enabled(if: canMount, "needs the private mount namespace of kiosk/test"))
    func freeSpaceCheck() throws {
        let (result, output) = try fillTmpfs(minFreeDisk: 1024 * 1024)
        #expect(result.reason == .diskFull && result.success)
        // It stopped before the reserve: at least 1 MiB was left free.
        #expect(result.bytes <= 20 * 1024 * 1024 - 1024 * 1024, "\(result.bytes) bytes in \(output)")
    }

    @Test("a write that fails with ENOSPC stops with diskFull; the file is cut to its last fragment and plays",
          .enabled(if: canMount, "needs the private mount namespace of kiosk/test"))
    func enospc() throws {
        // The disk fills behind the writer's back: the next fragment's write fails.
        let (result, _) = try fillTmpfs(minFreeDisk: 0, filler: 200 * 1024)
        #expect(result.reason == .diskFull && result.success)
        #expect(result.bytes <= 20 * 1024 * 1024)
    }

    @Test("the next take keeps an interrupted one: moved aside and reported with its length")
    func recovery() throws {
        let folder = scratch("recover")
        let output = folder.appendingPathComponent("output.mov").path
        let (writer, finished) = try startedWriter(takeSettings(output, size: Size(width: 320, height: 240)))
        feed(writer, size: Size(width: 320, height: 240), seconds: 2)
        writer.stop(reason: .user)
        _ = try #require(finished.wait())
        // A finished take keeps its marker until it is used; a used one has none, and the next
        // start deletes it, as the seed does.
        #expect(FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: output)))
        #expect(TakeFiles.handOver(output, rename: false) == (output, nil))
        #expect(!FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: output)))
        #expect(TakeFiles.discardPrevious(at: output, playable: MovieProbe.playableDuration) == nil)
        #expect(!FileManager.default.fileExists(atPath: output))

        // The same take, as a crash leaves it: file and marker.
        let (second, again) = try startedWriter(takeSettings(output, size: Size(width: 320, height: 240)))
        feed(second, size: Size(width: 320, height: 240), seconds: 2)
        second.stop(reason: .user)
        _ = try #require(again.wait())
        try Data("4242\n".utf8).write(to: URL(fileURLWithPath: TakeFiles.markerPath(for: output)))
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let recovered = try #require(TakeFiles.discardPrevious(at: output, now: when, playable: MovieProbe.playableDuration))
        #expect(recovered.path.hasPrefix(folder.appendingPathComponent("output.recovered-").path))
        #expect(recovered.path.hasSuffix(".mov"))
        #expect(abs(recovered.duration - 2) < 0.05)
        #expect(FileManager.default.fileExists(atPath: recovered.path))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: output)))
        // A second recovery in the same second gets its own name.
        try Data(contentsOf: URL(fileURLWithPath: recovered.path)).write(to: URL(fileURLWithPath: output))
        try Data().write(to: URL(fileURLWithPath: TakeFiles.markerPath(for: output)))
        let other = try #require(TakeFiles.discardPrevious(at: output, now: when, playable: MovieProbe.playableDuration))
        #expect(other.path != recovered.path)
        // A marker with a file that holds nothing playable: nothing to keep.
        try Data("junk".utf8).write(to: URL(fileURLWithPath: output))
        try Data().write(to: URL(fileURLWithPath: TakeFiles.markerPath(for: output)))
        #expect(TakeFiles.discardPrevious(at: output, playable: MovieProbe.playableDuration) == nil)
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
