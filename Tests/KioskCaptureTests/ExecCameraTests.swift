// The exec camera: the JPEG splitter on made-up and real (ffmpeg's) streams in every chunking,
// naming a stream that is not what was declared, and the camera itself with small shell commands:
// raw frames, the command's end as a lost camera and its restart, its process group ended on stop.
import Foundation
import Testing
@testable import KioskCapture
import KioskContract
import KioskCore
import KioskMedia
import KioskSystem
import KioskTestSupport

@Suite("Exec camera")
struct ExecCameraTests {
    /// A JPEG-shaped picture: SOI, an APP1 segment holding `FF D9` (a thumbnail's end), a DQT-like
    /// segment, SOS, scan data with a stuffed FF 00, a restart marker and fill bytes, EOI.
    static func picture(_ tag: UInt8) -> [UInt8] {
        let app1: [UInt8] = [0xFF, 0xE1, 0x00, 0x08, 0xFF, 0xD9, 0xFF, 0xD8, tag, 0x00]
        let dqt: [UInt8] = [0xFF, 0xDB, 0x00, 0x04, tag, tag]
        let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 1, 2, 3, 4, 5, 6]
        let scan: [UInt8] = [tag, 0xFF, 0x00, 0x12, 0xFF, 0xD3, 0x34, 0xFF, 0x00, tag]
        return [0xFF, 0xD8] + app1 + dqt + sos + scan + [0xFF, 0xFF, 0xD9]
    }

    /// Whether a process runs (a zombie does not: PID 1 in a container may never reap it).
    static func running(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    /// A fresh folder for a test's files.
    static func scratch(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "kiosk-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func split(_ stream: [UInt8], chunk: Int) -> (pictures: [[UInt8]], splitter: JPEGSplitter) {
        var splitter = JPEGSplitter(), pictures: [[UInt8]] = []
        var i = 0
        while i < stream.count {
            splitter.append(Array(stream[i..<min(i + chunk, stream.count)]))
            while let p = splitter.next() { pictures.append(p) }
            i += chunk
        }
        return (pictures, splitter)
    }

    @Test("concatenated JPEGs split on their markers, whatever the reads' sizes: FF D9 inside a segment does not end a picture, stuffing and restart markers pass", arguments: [1, 2, 3, 7, 64, 100_000])
    func splitting(chunk: Int) {
        let pictures = (0..<5).map { Self.picture(UInt8($0 + 1)) }
        let (out, splitter) = Self.split(pictures.flatMap { $0 }, chunk: chunk)
        #expect(out == pictures)
        #expect(splitter.skippedBytes == 0 && splitter.brokenPictures == 0 && splitter.pendingBytes == 0)
    }

    @Test("bytes outside pictures are skipped and counted; a picture cut short by the next SOI, or with a bad segment length, is dropped and counted; the rest come through", arguments: [1, 5, 1 << 20])
    func damaged(chunk: Int) {
        let a = Self.picture(1), b = Self.picture(2), c = Self.picture(3), d = Self.picture(4)
        let banner = Array("ffmpeg says hi\n".utf8)
        let cut = Array(b.prefix(20))                            // b cut inside its DQT segment
        var badLength = c
        badLength[4...5] = [0x00, 0x01]                         // APP1 length 1: impossible
        // What follows: more than the 64 KiB a cut picture's last length (read from c's SOI, FF D8)
        // sends the walk ahead before it fails.
        let more = (0..<2000).map { Self.picture(UInt8(5 + $0 % 200)) }
        let stream = banner + a + cut + c + [0x00, 0x42] + badLength + d + more.flatMap { $0 }
        let (out, splitter) = Self.split(stream, chunk: chunk)
        #expect(out == [a, c, d] + more, "\(out.count) pictures")
        // Each broken picture counts twice: the thumbnail's SOI inside it is tried as well.
        #expect(splitter.brokenPictures == 4)
        #expect(splitter.skippedBytes >= banner.count + 2)
    }

    @Test("a picture that never ends is dropped once it passes the size cap (no unbounded buffer)")
    func endless() {
        var splitter = JPEGSplitter()
        splitter.append([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02])
        let block = [UInt8](repeating: 0x55, count: 1 << 20)
        for _ in 0...(JPEGSplitter.maxPictureBytes >> 20) {
            splitter.append(block)
            #expect(splitter.next() == nil)
        }
        #expect(splitter.brokenPictures == 1 && splitter.pendingBytes < 2 << 20)
    }

    @Test("ffmpeg's MJPEG (-f mjpeg) splits into pictures that each decode")
    func realStream() throws {
        let file = Self.scratch("exec-mjpeg") + "/stream.mjpeg"
        let run = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "12",
                                  "-f", "mjpeg", file])
        try #require(run.status == 0, "\(run.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let (pictures, splitter) = Self.split(bytes, chunk: 4096)
        #expect(pictures.count == 12 && splitter.skippedBytes == 0 && splitter.pendingBytes == 0)
        let decoder = try VideoDecoder.mjpeg()
        for (n, picture) in pictures.enumerated() {
            let frame = try picture.withUnsafeBytes { try decoder.decode($0, timestamp: Int64(n), sequence: UInt32(n)) }
            #expect(frame?.size == Size(width: 320, height: 240))
        }
    }

    @Test("a stream's first bytes name what it is when it is not the declared format")
    func sniffing() {
        let table: [([UInt8], String?)] = [
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "MJPEG (JPEG pictures)"),
            ([0, 0, 0, 1, 0x67, 0x42], "H.264 (Annex B)"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], "PNG"),
            (Array("YUV4MPEG2 W640 H480".utf8), "YUV4MPEG2 (y4m)"),
            ([0x1A, 0x45, 0xDF, 0xA3, 1], "Matroska/WebM"),
            ([0, 0, 0, 0x20] + Array("ftypisom".utf8), "an MP4/MOV file"),
            ([16, 16, 16, 16, 128, 128], nil),
        ]
        for (head, name) in table { #expect(StreamSniffer.identify(head) == name, "\(head)") }
        #expect(StreamSniffer.notRaw([0xFF, 0xD8, 0xFF, 0xE0], declared: .i420)?.contains("use --camera-format mjpeg") == true)
        #expect(StreamSniffer.notRaw([16, 16, 16, 16], declared: .i420) == nil)
        #expect(StreamSniffer.notMJPEG([0x10, 0x20]).contains("10 20, no JPEG start marker"))
    }

    /// A camera on `command`, started; its frames and events as they come.
    final class Run: Sendable {
        let camera: ExecCamera
        let frames = Locked<[VideoFrame]>([])
        let events = Locked<[CaptureEvent]>([])
        init(_ command: String, format: CameraPipeFormat = .i420, size: Size = Size(width: 32, height: 16), delayMilliseconds: Int = 0,
             firstPictureMilliseconds: Int64 = 10_000, silenceMilliseconds: Int64 = 10_000) throws {
            camera = ExecCamera(command: command, size: size, fps: 30,
                                settings: ExecCameraSettings(format: format, delayMilliseconds: delayMilliseconds), mjpeg: VideoDecoder.mjpeg,
                                firstPictureMilliseconds: firstPictureMilliseconds, silenceMilliseconds: silenceMilliseconds)
            try camera.start(frames: { [frames] f in frames.withLock { $0.append(f) } },
                             events: { [events] e in events.withLock { $0.append(e) } })
        }
        func waitFor(_ what: @escaping ([VideoFrame], [CaptureEvent]) -> Bool, timeout: Double) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if what(frames.withLock { $0 }, events.withLock { $0 }) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }
    }

    @Test("raw I420 frames of --size come through whole, with the bytes sent, stamped on arrival in order; the command's end is a lost camera and it is started again (cameraBack)")
    func rawFramesAndRestart() throws {
        // 32x16 I420 = 768 bytes a frame: three frames with luma 1, 2, 3, then the command exits.
        let command = #"for n in 1 2 3; do head -c 512 /dev/zero | tr '\0' "\00$n"; head -c 256 /dev/zero; sleep 0.05; done"#
        let before = MonotonicClock.now()
        let run = try Run(command)
        defer { run.camera.stop() }
        #expect(run.waitFor({ f, e in f.count >= 3 && e.contains { if case .cameraLost = $0 { true } else { false } } }, timeout: 10))
        let frames = run.frames.withLock { Array($0.prefix(3)) }
        #expect(frames.map { $0.luma(x: 5, y: 5) } == [1, 2, 3])
        #expect(frames.allSatisfy { $0.format == .yuv420p && $0.size == Size(width: 32, height: 16) && $0.bytes.count == 768 })
        #expect(frames.map(\.timestamp) == frames.map(\.timestamp).sorted() && frames[0].timestamp >= before)
        let lost = run.events.withLock { $0.compactMap { if case let .cameraLost(r) = $0 { r } else { nil } } }
        #expect(lost.first?.contains("the command ended (exit status 0) after 3 pictures") == true, "\(lost)")
        // Started again a second later: its pictures come back, announced by cameraBack.
        #expect(run.waitFor({ f, e in f.count >= 6 && e.contains { if case .cameraBack = $0 { true } else { false } } }, timeout: 10))
    }

    @Test("raw NV12 and YUYV frames of --size come through whole with the bytes sent", arguments: [CameraPipeFormat.nv12, .yuyv])
    func otherRawFormats(format: CameraPipeFormat) throws {
        // 32x16: NV12 is 512 luma bytes then 256 of interleaved chroma; YUYV is 1024 bytes with
        // luma in every other byte. Luma 1, 2, 3 in three frames, chroma 128.
        let command = format == .nv12
            ? #"for n in 1 2 3; do head -c 512 /dev/zero | tr '\0' "\00$n"; head -c 256 /dev/zero | tr '\0' '\200'; sleep 0.05; done; sleep 5"#
            : #"for n in 1 2 3; do for i in $(seq 512); do printf "\00$n\200"; done; sleep 0.05; done; sleep 5"#
        let run = try Run(command, format: format)
        defer { run.camera.stop() }
        #expect(run.waitFor({ f, _ in f.count >= 3 }, timeout: 10))
        let frames = run.frames.withLock { Array($0.prefix(3)) }
        let raw = try #require(format.rawFormat)
        #expect(frames.allSatisfy { $0.format == raw && $0.size == Size(width: 32, height: 16) && $0.bytes.count == raw.frameBytes(for: Size(width: 32, height: 16)) },
                "\(frames.map { ($0.format, $0.bytes.count) })")
        #expect(frames.map { $0.luma(x: 5, y: 5) } == [1, 2, 3])
    }

    @Test("--camera-delay moves each picture's time back by the delay from its arrival")
    func delayShiftsStamps() throws {
        let command = #"for n in 1 2 3; do head -c 768 /dev/zero; sleep 0.05; done; sleep 5"#
        let before = MonotonicClock.now()
        let run = try Run(command, delayMilliseconds: 2000)
        defer { run.camera.stop() }
        #expect(run.waitFor({ f, _ in f.count >= 3 }, timeout: 10))
        let seen = MonotonicClock.now()
        let stamps = run.frames.withLock { $0.prefix(3).map(\.timestamp) }
        // Each arrived after `before` and before `seen`: with the delay its time is 2 s earlier,
        // which no picture of this command can have been without it.
        #expect(stamps.allSatisfy { $0 >= before - 2_000_000_000 && $0 <= seen - 2_000_000_000 }, "\(stamps) \(before) \(seen)")
    }

    @Test("a command that falls silent after its first picture is a lost camera once the silence lasts; a slow starter is waited for")
    func silenceAndSlowStart() throws {
        // One picture, then nothing (the program still runs): lost after the silence (0.8 s here).
        let silent = try Run(#"head -c 768 /dev/zero; sleep 30"#, firstPictureMilliseconds: 3000, silenceMilliseconds: 800)
        defer { silent.camera.stop() }
        let start = MonotonicClock.now()
        #expect(silent.waitFor({ f, e in f.count == 1 && e.contains { if case .cameraLost = $0 { true } else { false } } }, timeout: 10))
        let lost = silent.events.withLock { $0.compactMap { if case let .cameraLost(r) = $0 { r } else { nil } } }
        #expect(lost.first?.hasSuffix(": no picture for 0.8 s") == true, "\(lost)")
        #expect(Double(MonotonicClock.now() - start) / 1e9 >= 0.8)
        // A program whose first picture takes 1.5 s, within the 3 s it is given: no loss.
        let slow = try Run(#"sleep 1.5; for n in 1 2 3; do head -c 768 /dev/zero; sleep 0.05; done; sleep 5"#,
                           firstPictureMilliseconds: 3000, silenceMilliseconds: 800)
        defer { slow.camera.stop() }
        #expect(slow.waitFor({ f, _ in f.count >= 3 }, timeout: 10))
        #expect(slow.events.withLock { $0.allSatisfy { if case .cameraLost = $0 { false } else { true } } }, "\(slow.events.withLock { $0 })")
    }

    @Test("stop ends the command's whole process group (a pipeline's programs too) before it returns")
    func stopEndsGroup() throws {
        let pids = Self.scratch("exec-stop") + "/pids"
        // Two programs: a background sleeper and the one writing; both write their pids.
        let command = "sleep 300 & echo $! >> \(pids); sh -c 'echo $$ >> \(pids); exec cat /dev/zero'"
        let run = try Run(command)
        #expect(run.waitFor({ f, _ in f.count >= 5 }, timeout: 10))
        let started = try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
        try #require(started.count == 2)
        #expect(started.allSatisfy { Self.running($0) })
        run.camera.stop()
        // The sleeper was reparented to init (which reaps it): give it a moment to be gone.
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline, started.contains(where: { Self.running($0) }) { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!started.contains { Self.running($0) }, "still running: \(started.filter { Self.running($0) })")
    }

    @Test("output that is not the declared format is a lost camera naming it: raw declared, MJPEG sent; MJPEG declared, raw sent")
    func wrongFormat() throws {
        let jpegs = try Run("ffmpeg -v error -re -f lavfi -i testsrc2=size=64x48:rate=30 -f mjpeg -", format: .i420, size: Size(width: 64, height: 48))
        defer { jpegs.camera.stop() }
        let raw = try Run("cat /dev/zero", format: .mjpeg)
        defer { raw.camera.stop() }
        for run in [jpegs, raw] {
            #expect(run.waitFor({ _, e in !e.isEmpty }, timeout: 15))
        }
        let first = { (run: Run) in run.events.withLock { $0.first } }
        #expect(first(jpegs).map { if case let .cameraLost(r) = $0 { r.contains("is not raw i420 frames as --camera-format says: it looks like MJPEG") } else { false } } == true, "\(String(describing: first(jpegs)))")
        #expect(first(raw).map { if case let .cameraLost(r) = $0 { r.contains("is not MJPEG as --camera-format says") && r.contains("00 00 00 00") } else { false } } == true, "\(String(describing: first(raw)))")
        #expect(jpegs.frames.withLock { $0.isEmpty } && raw.frames.withLock { $0.isEmpty })
    }

    @Test("auto passes over capture nodes without a format the booth reads (a Pi's Bayer receivers) and the Pi's ISP nodes")
    func autoSkipsUnusable() {
        func node(_ path: String, _ driver: String, _ fourccs: [String]) -> CameraDescription {
            CameraDescription(path: path, name: path, driver: driver, bus: "b",
                              formats: fourccs.map { .init(fourcc: $0, description: $0, sizes: []) })
        }
        // A Pi 4 with a camera module and a USB webcam: the CSI receiver (raw Bayer), the webcam,
        // the ISP's input (no capture format), its two YUV outputs, its statistics, and a node
        // with a format nobody reads; then a Pi 5's receiver and ISP back end.
        let found = [node("/dev/video0", "unicam", ["pRAA", "RG10"]), node("/dev/video1", "uvcvideo", ["YUYV", "MJPG"]),
                     node("/dev/video13", "bcm2835-isp", []), node("/dev/video14", "bcm2835-isp", ["RGB3", "YU12", "NV12"]),
                     node("/dev/video15", "bcm2835-isp", ["YU12"]), node("/dev/video16", "bcm2835-isp", ["BSTA"]),
                     node("/dev/video20", "d", ["BA81"]), node("/dev/video3", "unicam", ["YUYV"]),
                     node("/dev/video0", "rp1-cfe", ["pRAA"]), node("/dev/video21", "pispbe", ["YU12", "NV12", "YUYV"])]
        // A receiver that gives YUYV (an HDMI-to-CSI bridge) is a camera like any other.
        #expect(CameraFactory.usable(found).map(\.path) == ["/dev/video1", "/dev/video3"])
    }
}
