// A/V sync through the whole booth: a take recorded by the real kiosk-recorder from sources whose
// truth is known, measured from the file. The sources flash a frame and start a beep at each whole
// second of CLOCK_MONOTONIC; a flash frame carries its own capture time after that second (its
// phase, FrameStamp band 1), so the test knows where the beep belongs relative to *that* frame and
// cannot pass by pairing the wrong beep. Every frame also carries its number, so the test sees that
// each one is in the file once, at its own time.
import Foundation
import Glibc
import Testing
import KioskCore
import KioskTestSupport

@Suite("A/V sync and frame timing through the binary", .serialized)
struct AVSyncEndToEndTests {
    @Test("test camera and test tone: each frame once at its own time, from the first captured after Start; every beep within 33 ms of its flash frame's truth")
    func testSources() throws {
        let folder = try testFolder("avsync-test")
        let take = try Self.record(["--camera", "test", "--microphone", "test", "--size", "640x480"], in: folder)
        try Self.check(take, fps: 30)
    }

    @Test("fake V4L2 camera (MJPEG 720p, flash=1) and fake ALSA microphone (beep): the same through the real capture code",
          needsFakeCamera)
    func fakeDevices() throws {
        let folder = try testFolder("avsync-fake")
        let device = try fakeCamera(in: folder, "card=Booth Cam\nformat=MJPG 1280x720@30\nflash=1\n")
        let plugin = TestEnvironment.fakeMicrophonePlugin
        try #require(FileManager.default.fileExists(atPath: plugin), "build the package first (swift build)")
        try """
            pcm_type.kiosk_fake_microphone { lib "\(plugin)" }
            pcm.kiosk_fake_mic { type kiosk_fake_microphone  beep 1 }
            """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let take = try Self.record(["--camera", device, "--microphone", "kiosk_fake_mic", "--size", "1280x720"], in: folder,
                                   environment: ["HOME": folder.path])
        try Self.check(take, fps: 30)
    }

    // MARK: - Recording and measuring

    struct Take {
        let path: String
        let width: Int, height: Int
        /// CLOCK_MONOTONIC just before `start` was written, and when `recordingStarted` came.
        let startWritten: Double, started: Double
        /// The pictures the booth said it left out by plan (its step-down: a machine loaded by other
        /// work can step a 720p take to every 2nd picture for a second, ci52's real-time pass).
        var skippedFrames = 0
        /// The booth's stderr, for a failure's message.
        var stderr = ""
    }

    static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Records a take until the booth's timer shows `seconds` (whole seconds: 4, four or five
    /// flashes) and hands it over.
    static func record(_ arguments: [String], in folder: URL, environment: [String: String] = [:], seconds: Double = 3.6) throws -> Take {
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(arguments + ["--windowed", "800x480", "--countdown", "0", "--output", output], environment: environment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        guard case let .ready(_, width, height, _, _, _, _)? = r.events.first else { throw Failure("no ready: \(r.rawLines)") }
        let startWritten = monotonic()
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines) \(r.stderr)")
        let started = monotonic()
        #expect(r.waitRecorded(seconds, timeout: seconds + 30), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.rawLines)")
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" }) else {
            throw Failure("no result: \(r.rawLines)")
        }
        #expect(result.success && result.droppedFrames == 0, "\(r.rawLines)")
        return Take(path: output, width: width, height: height, startWritten: startWritten, started: started, skippedFrames: result.skippedFrames,
                    stderr: r.stderr)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    struct Picture {
        let time: Double, number: Int, phase: Int, flash: Bool
    }

    /// Every picture of the file in order: its time, its number (band 0), and for a flash frame (white
    /// below the bands) its phase (band 1).
    static func pictures(of take: Take) throws -> [Picture] {
        let (w, h) = (take.width, take.height)
        let raw = take.path + ".gray"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decode = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", take.path, "-map", "0:v:0", "-f", "rawvideo",
                                     "-pix_fmt", "gray", "-fps_mode", "passthrough", raw])
        try #require(decode.status == 0, "\(decode.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let times = try runProgram(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                                    "-of", "csv=p=0", take.path]).stdout
            .split(whereSeparator: \.isNewline).compactMap { Double($0.replacingOccurrences(of: ",", with: "")) }
        let count = bytes.count / (w * h)
        try #require(count == times.count && count > 0, "\(count) pictures, \(times.count) times")
        let below = FrameStamp.bandRows(1, frameHeight: h).upperBound
        return (0..<count).map { k in
            let base = k * w * h
            let luma: (Int, Int) -> UInt8 = { x, y in bytes[base + y * w + x] }
            // Mean luma of a sparse grid below the bands: a flash frame is white there.
            var sum = 0, n = 0
            for y in stride(from: below + 4, to: h, by: 16) {
                for x in stride(from: 0, to: w, by: 16) { sum += Int(luma(x, y)); n += 1 }
            }
            let flash = n > 0 && sum / n > 200
            return Picture(time: times[k], number: FrameStamp.read(width: w, height: h, band: 0, luma: luma),
                           phase: flash ? FrameStamp.read(width: w, height: h, band: 1, luma: luma) : 0, flash: flash)
        }
    }

    /// The take's sound, decoded to mono 48 kHz, and where it starts on the file's time line.
    static func sound(of take: Take) throws -> (samples: [Int16], start: Double) {
        let raw = take.path + ".s16"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decode = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", take.path, "-map", "0:a:0", "-ac", "1", "-ar", "48000",
                                     "-f", "s16le", raw])
        try #require(decode.status == 0, "\(decode.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return (samples, Double(try ffprobe(take.path, "stream=start_time", stream: "a:0")) ?? 0)
    }

    /// The file time of each beep's first sample (1 kHz from a zero crossing: the first sample over a
    /// tenth of full scale after 50 ms of quiet).
    static func beepOnsets(of take: Take) throws -> (onsets: [Double], sound: ClosedRange<Double>) {
        let (samples, start) = try sound(of: take)
        var onsets: [Double] = []
        var quiet = 0
        for (i, s) in samples.enumerated() {
            if abs(Int(s)) > 1638 {
                if quiet >= 2400 { onsets.append(start + Double(i) / 48000) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        // The sound the take kept: after AAC's priming (1024 samples) to its last sample.
        return (onsets, (start + 1024.0 / 48000)...(start + Double(samples.count) / 48000))
    }

    static func check(_ take: Take, fps: Double) throws {
        let pictures = try pictures(of: take)
        let (onsets, sound) = try beepOnsets(of: take)
        let period = 1 / fps
        // Each frame once, in order, at its own time: numbers step by one (no drop was reported;
        // a gap only where the booth said it left pictures out by plan), and a frame's time is its
        // distance in frames from the first (the sources are paced exactly).
        let first = try #require(pictures.first)
        #expect(abs(first.time) < 0.0005, "the take starts at its first frame: \(first.time)")
        var misplaced: [String] = []
        for (k, p) in pictures.enumerated() {
            if k > 0 && p.number <= pictures[k - 1].number { misplaced.append("picture \(k) is frame \(p.number), after \(pictures[k - 1].number)") }
            let due = Double(p.number - first.number) * period
            if abs(p.time - due) > 0.0015 { misplaced.append("frame \(p.number) at \(p.time) s, due at \(due) s") }
        }
        #expect(misplaced.isEmpty, "\(misplaced.prefix(8))")
        let missing = (pictures.last?.number ?? first.number) - first.number + 1 - pictures.count
        #expect(missing <= take.skippedFrames, "\(missing) frames missing between the first picture and the last, \(take.skippedFrames) left out by plan")
        if take.skippedFrames > 0 {
            // A stepped take: its flash frames kept or left out by their parity (see expectInSync).
            try SteppedTakeEndToEndTests.expectInSync(take, pictures: pictures, fps: fps, name: "stepped A/V sync")
            return
        }

        let flashes = pictures.filter(\.flash)
        try #require(flashes.count >= 3, "flash frames: \(flashes.count) of \(pictures.count)")
        let errors = try flashErrors(take, pictures: pictures, onsets: onsets, sound: sound, fps: fps)
        for error in errors {
            #expect(abs(error) <= 0.033, "A/V error \(Int((error * 1000).rounded())) ms (beep minus truth); all: \(errors)")
        }
        print("A/V errors (ms, beep onset minus truth): \(errors.map { (($0 * 10000).rounded() / 10) })")
    }

    /// For each flash frame whose beep lies within the take's sound: the beep's onset minus where it
    /// belongs (the frame's time minus its phase), in seconds, in order.
    static func flashErrors(_ take: Take, pictures: [Picture], onsets: [Double], sound: ClosedRange<Double>, fps: Double) throws -> [Double] {
        let period = 1 / fps
        let first = try #require(pictures.first)
        let flashes = pictures.filter(\.flash)
        try #require(!flashes.isEmpty)
        // The first frame's capture time, from the first flash: the flash gives its fraction of a
        // second (its phase), and the whole second is the one that puts it between Start written and
        // just after recordingStarted. (The nearest second to Start written was the wrong one when the
        // writer took over half a second to open, as in a loaded debug run: 0.51 s.) A phase that fits
        // no second in that window, shorter than one, is a frame from before Start or long after.
        let f = flashes[0]
        let sinceFirst = Double(f.number - first.number) * period
        let phase = Double(f.phase) * Double(FrameStamp.phaseUnitNanoseconds) / 1e9
        let window = (take.startWritten - 0.001)...(take.started + 2 * period)
        try #require(window.upperBound - window.lowerBound < 1, "Start took \(take.started - take.startWritten) s to answer")
        let base = (take.startWritten + sinceFirst - phase).rounded(.down)
        let candidates = [base, base + 1, base + 2].map { $0 + phase - sinceFirst }
        let firstCaptured = candidates.first(where: window.contains) ?? candidates[0]
        #expect(window.contains(firstCaptured),
                "the first frame was captured at \(firstCaptured); start written at \(take.startWritten), recordingStarted at \(take.started)")

        // A/V: where each flash frame's beep must be in the file (the frame's time minus its phase),
        // against the beep nearest to that.
        var errors: [Double] = []
        var judged = 0
        for flash in flashes {
            let truth = flash.time - Double(flash.phase) * Double(FrameStamp.phaseUnitNanoseconds) / 1e9
            // A beep that began before the take's sound, or in its first 200 ms (the sound there may
            // begin with silence until the microphone's first chunk is in, and a beep cut at its start
            // has no clean onset), or whose 100 ms run past its end: nothing to pair.
            guard truth >= sound.lowerBound + 0.2, truth + 0.1 <= sound.upperBound else { continue }
            judged += 1
            guard let onset = onsets.min(by: { abs($0 - truth) < abs($1 - truth) }) else { continue }
            errors.append(onset - truth)
        }
        #expect(judged >= 2 && errors.count == judged, "beeps \(onsets), flashes \(flashes.map(\.time)), sound \(sound)")
        return errors
    }
}
