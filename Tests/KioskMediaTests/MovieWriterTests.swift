// The real writer on frames and audio made here with known timing: what ffprobe, GStreamer and
// our own demuxer find in the files.
import Foundation
import KioskContract
@testable import KioskStorage
import Testing
@testable import KioskMedia
import KioskCore
import KioskSystem
import KioskTestSupport

/// A yuv420p picture at `size`: grey with the frame-number stamp, all white when `flash`.
func picture(_ size: Size, number: Int, timestamp: Int64, flash: Bool = false) -> VideoFrame {
    var bytes = stampedFrame(size, number: number)
    if flash {
        let band = FrameStamp.bandHeight(frameHeight: size.height) * size.width
        for i in band..<(size.width * size.height) { bytes[i] = FrameStamp.white }
    }
    return VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size), bytes: bytes,
                      timestamp: timestamp, sequence: UInt32(number))
}

/// 10 ms of mono 48 kHz starting at `timestamp`: a 1 kHz beep during the first 100 ms of each second.
func tone(at timestamp: Int64) -> AudioChunk {
    let samples = (0..<480).map { i -> Int16 in
        let t = timestamp + Int64(i) * 1_000_000_000 / 48000
        guard t % 1_000_000_000 < 100_000_000 else { return 0 }
        return Int16(12000 * sin(2 * Double.pi * 1000 * Double(t) / 1e9))
    }
    return AudioChunk(samples: samples, channels: 1, sampleRate: 48000, timestamp: timestamp)
}

/// Feeds `seconds` of 30 fps pictures and 10 ms tone chunks, in capture order, without pacing.
func feed(_ writer: MovieWriter, size: Size, seconds: Double, start: Int64 = 5_000_000_000, audio: Bool = true) {
    let frames = Int(seconds * 30)
    var nextAudio = start - 30_000_000 // the microphone started a little before the camera
    for k in 0..<frames {
        let t = start + Int64(k) * 1_000_000_000 / 30
        while audio && nextAudio <= t {
            writer.append(tone(at: nextAudio))
            nextAudio += 10_000_000
        }
        let previous = t - 1_000_000_000 / 30
        writer.appendWaiting(picture(size, number: k, timestamp: t, flash: t / 1_000_000_000 != previous / 1_000_000_000))
    }
}

final class Finished: Sendable {
    let result = Locked<RecordingResult?>(nil)
    let done = DispatchSemaphore(value: 0)
    var callback: @Sendable (RecordingResult) -> Void {
        { [self] r in
            result.withLock { $0 = r }
            done.signal()
        }
    }
    func wait(seconds: Double = 20) -> RecordingResult? {
        _ = done.wait(timeout: .now() + seconds)
        return result.withLock { $0 }
    }
}

/// A writer started with `settings`, and what its end says.
func startedWriter(_ settings: MovieSettings) throws -> (writer: MovieWriter, finished: Finished) {
    let finished = Finished()
    let writer = MovieWriter(settings: settings, onFinish: finished.callback)
    try writer.start()
    return (writer, finished)
}

/// A 30 fps take at `output` of `size` with mono 48 kHz sound: the tests' usual settings.
func takeSettings(_ output: String, size: Size) -> MovieSettings {
    MovieSettings(outputPath: output, videoSize: size, fps: 30, audio: (48000, 1))
}

func scratch(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-writer-\(name)-\(getpid())")
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("Movie writer")
struct MovieWriterTests {
    @Test("a 4 s take: H.264 + AAC that ffprobe and GStreamer read, the right length, frames in order")
    func basicTake() throws {
        let folder = scratch("basic")
        let output = folder.appendingPathComponent("output.mov").path
        let (writer, finished) = try startedWriter(takeSettings(output, size: Size(width: 640, height: 480)))
        #expect(FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: output)))
        feed(writer, size: Size(width: 640, height: 480), seconds: 4)
        writer.stop(reason: .user)
        let result = try #require(finished.wait())
        #expect(result.success && result.reason == .user && result.droppedFrames == 0)
        #expect(abs(result.duration - 4) <= 1.0 / 30 + 0.001, "duration \(result.duration)")
        #expect(result.bytes == (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64))
        // The marker stays until the take is used, discarded or handed over (TakeFiles).
        #expect(FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: output)))

        let probe = try runProgram(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,codec_type,nb_read_frames",
                                    "-count_frames", "-show_entries", "format=duration", "-of", "json", output])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.contains("\"codec_name\": \"h264\"") && probe.stdout.contains("\"codec_name\": \"aac\""))
        #expect(probe.stdout.contains("\"nb_read_frames\": \"120\""), "\(probe.stdout)")
        let gst = try runProgram(["gst-discoverer-1.0", output])
        #expect(gst.status == 0 && gst.stdout.contains("H.264") && gst.stdout.contains("AAC"), "\(gst.stdout)")
        let decode = try runProgram(["ffmpeg", "-v", "error", "-i", output, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
        let info = try MovieProbe.inspect(output)
        #expect(info.videoPackets == 120 && info.audioPackets > 180)
        #expect(abs(info.duration - 4) < 0.05)
    }
}

/// A picture of noise (x264 cannot squeeze it), for filling a file fast.
func noise(_ size: Size, number: Int, timestamp: Int64) -> VideoFrame {
    var state = UInt64(number + 1) &* 0x9E37_79B9_7F4A_7C15
    let count = PixelFormat.yuv420p.frameBytes(for: size)
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, n in
        let words = UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt64.self)
        for i in 0..<words.count {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            words[i] = state
        }
        for i in (words.count * 8)..<count { buffer[i] = 128 }
        n = count
    }
    return VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size), bytes: bytes,
                      timestamp: timestamp, sequence: UInt32(number))
}

extension MovieWriterTests {
    @Test("max duration 3 s: the file is 3 s within one frame, reason maxDuration, still a good take")
    func maxDuration() throws {
        let output = scratch("maxdur").appendingPathComponent("take.mp4").path
        var settings = MovieSettings(outputPath: output, videoSize: Size(width: 320, height: 240), fps: 30, audio: (48000, 1))
        settings.maxDuration = 3
        let (writer, finished) = try startedWriter(settings)
        feed(writer, size: Size(width: 320, height: 240), seconds: 4)
        writer.stop(reason: .user) // too late: the limit came first
        let result = try #require(finished.wait())
        #expect(result.reason == .maxDuration && result.success)
        #expect(abs(result.duration - 3) <= 1.0 / 30 + 0.001, "\(result.duration)")
        let probe = try runProgram(["ffprobe", "-v", "error", "-show_entries", "format=duration:format_tags=major_brand",
                                    "-of", "default=nw=1:nk=1", output])
        let fields = probe.stdout.split(separator: "\n").map(String.init)
        #expect(fields.contains { $0.hasPrefix("iso") }, "an .mp4 output is an ISO MP4, not a QuickTime file: \(fields)")
        let seconds = try #require(fields.compactMap { Double($0) }.first)
        #expect(abs(seconds - 3) <= 1.0 / 30 + 0.001, "ffprobe says \(seconds)")
    }

    @Test("max file size 2 MiB at 1280x720: the file never exceeds it and plays")
    func maxFileSize() throws {
        let output = scratch("maxsize").appendingPathComponent("take.mov").path
        let size = Size(width: 1280, height: 720)
        var settings = takeSettings(output, size: size)
        settings.maxFileSize = 2 * 1024 * 1024
        let (writer, finished) = try startedWriter(settings)
        for k in 0..<150 {
            let t = 1_000_000_000 + Int64(k) * 33_333_333
            writer.append(tone(at: t))
            writer.appendWaiting(noise(size, number: k, timestamp: t))
        }
        writer.stop(reason: .user)
        let result = try #require(finished.wait(seconds: 60))
        let bytes = try #require(FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64)
        #expect(result.reason == .maxFileSize && result.success)
        #expect(bytes <= 2 * 1024 * 1024, "\(bytes) bytes")
        #expect(bytes > 2 * 1024 * 1024 * 8 / 10, "the cap is used, not wasted: \(bytes) bytes")
        #expect(result.bytes == bytes)
        let decode = try runProgram(["ffmpeg", "-v", "error", "-i", output, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }

    @Test("the display matrix says how to turn the picture, as ffprobe reads it",
          arguments: [(0, 0.0), (1, -90.0), (2, 180.0), (3, 90.0)])
    func rotation(quarterTurns: Int, ffprobeRotation: Double) throws {
        let output = scratch("rot\(quarterTurns)").appendingPathComponent("take.mov").path
        var settings = MovieSettings(outputPath: output, videoSize: Size(width: 320, height: 240), fps: 30, audio: nil)
        settings.rotationQuarterTurns = quarterTurns
        let (writer, finished) = try startedWriter(settings)
        feed(writer, size: Size(width: 320, height: 240), seconds: 1, audio: false)
        writer.stop(reason: .user)
        _ = try #require(finished.wait())
        let probe = try runProgram(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation",
                                    "-of", "csv=p=0", output])
        let reported = Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(abs(abs(reported) - abs(ffprobeRotation)) < 0.01 && (ffprobeRotation == 180 || reported == ffprobeRotation),
                "ffprobe rotation \(probe.stdout)")
        #expect(try MovieProbe.inspect(output).rotation == reported)
    }

    @Test("A/V offset measured from the file: the flash frame and the beep onset within 40 ms")
    func avOffset() throws {
        let output = scratch("sync").appendingPathComponent("take.mov").path
        let (writer, finished) = try startedWriter(takeSettings(output, size: Size(width: 320, height: 240)))
        feed(writer, size: Size(width: 320, height: 240), seconds: 3.5, start: 7_300_000_000)
        writer.stop(reason: .user)
        _ = try #require(finished.wait())
        let offsets = try AVSync.offsets(in: output)
        #expect(offsets.count >= 3, "flashes and beeps found: \(offsets)")
        for offset in offsets { #expect(abs(offset) <= 0.040, "offset \(offset) s") }
    }
}

/// Measures A/V offset in a file with ffmpeg: white-flash frame times against beep onsets.
enum AVSync {
    static func offsets(in path: String) throws -> [Double] {
        // Video: the mean luma of each frame with its time.
        let v = try runProgram(["ffprobe", "-v", "error", "-f", "lavfi", "movie=\(path),signalstats", "-show_entries",
                                "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"])
        var flashes: [Double] = []
        var previousBright = false
        for line in v.stdout.split(separator: "\n") {
            let parts = line.split(separator: ",")
            guard parts.count == 2, let t = Double(parts[0]), let y = Double(parts[1]) else { continue }
            let bright = y > 200
            if bright && !previousBright { flashes.append(t) }
            previousBright = bright
        }
        // Audio: 1 ms RMS windows (48 samples at 48 kHz) as raw s16 mono.
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-sync-\(getpid()).raw").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        _ = try runProgram(["ffmpeg", "-y", "-v", "error", "-i", path, "-ac", "1", "-ar", "48000", "-f", "s16le", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        var onsets: [Double] = []
        var loud = false
        var i = 0
        while i + 48 <= samples.count {
            let energy = samples[i..<(i + 48)].reduce(0.0) { $0 + Double($1) * Double($1) } / 48
            let isLoud = energy.squareRoot() > 2000
            if isLoud && !loud { onsets.append(Double(i) / 48000) }
            loud = isLoud
            i += 48
        }
        return flashes.compactMap { f in onsets.min(by: { abs($0 - f) < abs($1 - f) }).map { $0 - f } }
    }
}
