// The boomerang's loop (issue 45) in the writer and at a launch's recovery, on real files: the
// writer's capture (each picture a key frame) becomes its loop, its mark gone; a capture a kill left
// with its mark and a half-written loop beside it is looped again by the folder's recovery; one
// whose pictures are not all key frames cannot be, and goes.
import Foundation
import KioskContract
import KioskCore
import KioskTestSupport
@testable import KioskMedia
@testable import KioskStorage
import Testing

@Suite("Boomerang loop")
struct BoomerangLoopTests {
    static let size = Size(width: 320, height: 240)

    /// A boomerang of `seconds` at 30 fps written by the writer into `output`.
    static func boomerang(_ output: String, seconds: Double) throws -> RecordingResult {
        var settings = MovieSettings(outputPath: output, videoSize: size, fps: 30, audio: nil)
        settings.boomerang = BoomerangPlan(seconds: seconds, frameRate: 30)
        let (writer, finished) = try startedWriter(settings)
        feed(writer, size: size, seconds: seconds, audio: false)
        writer.stop(reason: .maxDuration)
        return try #require(finished.wait())
    }

    @Test("the writer's boomerang: its loop in place (116 pictures for 30, 3.87 s, 28 of them encoded anew: the backward half), its mark gone, its marker kept for the review; ffmpeg decodes it cleanly")
    func written() throws {
        let output = scratch("boomerang-written").appendingPathComponent("take-1.mp4").path
        let result = try Self.boomerang(output, seconds: 1)
        #expect(result.success && result.kind == .boomerang && abs(result.duration - 116.0 / 30) < 0.001, "\(result)")
        let info = try MovieProbe.inspect(output)
        #expect(info.videoPackets == 116 && info.audioPackets == 0, "\(info)")
        #expect(!FileManager.default.fileExists(atPath: TakeFiles.boomerangPendingPath(for: output)))
        #expect(!FileManager.default.fileExists(atPath: TakeFiles.boomerangLoopPath(for: output)))
        #expect(FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: output)), "the take is nobody's until it is used")
        let decode = try runProgram(["ffmpeg", "-v", "error", "-i", output, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }

    @Test("a kill while the loop was written: the capture with its mark and marker, a half-written loop beside it; the folder's recovery makes the loop, says so, and leaves neither")
    func killedWhileLooping() throws {
        let folder = scratch("boomerang-killed-looping")
        let made = folder.appendingPathComponent("made.mp4").path
        _ = try Self.boomerang(made, seconds: 0.5)
        _ = TakeFiles.handOver(made, rename: false)
        // The capture as a kill leaves it: the 58 pictures of the loop just made serve (each is a key frame).
        let take = folder.appendingPathComponent("take-7.mp4").path
        try FileManager.default.copyItem(atPath: made, toPath: take)
        try Data("4242\n".utf8).write(to: URL(fileURLWithPath: TakeFiles.markerPath(for: take)))
        try Data().write(to: URL(fileURLWithPath: TakeFiles.boomerangPendingPath(for: take)))
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: TakeFiles.boomerangLoopPath(for: take)))
        let before = try MovieProbe.inspect(take).videoPackets
        let recovered = TakeFolder(path: folder.path, template: "take-{n}.mp4", clockTrusted: false)
            .recoverOrphans(playable: MovieProbe.playableDuration, boomerang: { BoomerangLoop.remake($0, settings: BoomerangSettings()) })
        #expect(recovered.map(\.path) == [take], "\(recovered)")
        let after = try MovieProbe.inspect(take).videoPackets
        #expect(after == BoomerangPlan(seconds: 1, frameRate: 30).order(count: before).count, "\(before) pictures → \(after)")
        for leftover in [TakeFiles.markerPath(for: take), TakeFiles.boomerangPendingPath(for: take), TakeFiles.boomerangLoopPath(for: take)] {
            #expect(!FileManager.default.fileExists(atPath: leftover), "\(leftover)")
        }
    }

    @Test("a marked capture that holds no picture (a kill before its first fragment) cannot be looped: the recovery removes it and its mark")
    func notLoopable() throws {
        let folder = scratch("boomerang-not-loopable")
        let take = folder.appendingPathComponent("take-3.mov").path
        try Data("ftyp but no picture".utf8).write(to: URL(fileURLWithPath: take))
        try Data().write(to: URL(fileURLWithPath: TakeFiles.boomerangPendingPath(for: take)))
        #expect(TakeFiles.recoverBoomerang(take, remake: { BoomerangLoop.remake($0, settings: BoomerangSettings()) }) == .removed)
        #expect(!FileManager.default.fileExists(atPath: take) && !FileManager.default.fileExists(atPath: TakeFiles.boomerangPendingPath(for: take)))
        // No mark: nothing to do.
        #expect(TakeFiles.recoverBoomerang(take, remake: { _ in Issue.record("remade without a mark"); return nil }) == .none)
    }
}
