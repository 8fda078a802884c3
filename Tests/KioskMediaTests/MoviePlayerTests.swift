// The player without SDL: our own recordings played with a stand-in output device that pulls the
// sound on a thread of its own (the SDL side is tested in KioskUITests), a corpus of damaged
// copies, closing midway, files that are no movie, and the timestamp keeper's rules.
import Foundation
import Synchronization
import Testing
@testable import KioskMedia
import KioskCore

/// A take made by our own MovieWriter: 30 fps stamped pictures, a 1 kHz beep in the first 100 ms of
/// each second when `audio`, turned `rotation` quarter turns.
func recordTake(_ name: String, seconds: Double, size: Size = Size(width: 320, height: 240), audio: Bool = true,
                rotation: Int = 0) throws -> String {
    let output = scratch("play-\(name)").appendingPathComponent("take.mov").path
    let finished = Finished()
    var settings = MovieSettings(outputPath: output, videoSize: size, fps: 30, audio: audio ? (48000, 1) : nil)
    settings.rotationQuarterTurns = rotation
    let writer = MovieWriter(settings: settings, onFinish: finished.callback)
    try writer.start()
    feed(writer, size: size, seconds: seconds, audio: audio)
    writer.stop(reason: .user)
    let result = try #require(finished.wait())
    try #require(result.success)
    return output
}

/// Pulls a feed like an output device: `bufferFrames` at a time, every buffer's length of real time
/// divided by `speed` (0: as fast as it can), on its own thread, until stopped.
final class StandInDevice: Sendable {
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    let pulled = Mutex<Int>(0)

    init(feed: any AudioFeed, format: AudioOutputFormat, speed: Double) {
        let period = speed > 0 ? Int64(Double(format.bufferFrames) * 1e9 / Double(format.sampleRate) / speed) : 0
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: format.bufferFrames * format.bytesPerFrame)
            var next = MoviePlayer.now()
            while running.load(ordering: .relaxed) {
                buffer.withUnsafeMutableBytes { feed.fill($0, now: MoviePlayer.now()) }
                pulled.withLock { $0 += buffer.count }
                next += period
                let wait = next - MoviePlayer.now()
                if wait > 0 { usleep(UInt32(wait / 1000)) } else if period == 0 { usleep(200) }
            }
            done.signal()
        }.start()
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        done.wait()
    }
}

/// What one playback showed.
struct PlayOutcome {
    var ended: MoviePlayer.End?
    /// Each new picture: its stamp, its presentation time (s) and when it came (monotonic ns).
    var shown: [(stamp: Int, time: Double, at: Int64)] = []
    var seconds: Double
    var info: MoviePlayer.Info?
    var dropped: Int
    var closeSeconds = 0.0
}

/// Plays a file the way the UI does (update every millisecond), with a stand-in device for the
/// sound, until it ends or `timeout` seconds pass.
func play(_ path: String, speed: Double = 1, timeout: Double = 10, readStamps: Bool = true,
          during: ((MoviePlayer, Double) -> Void)? = nil) -> PlayOutcome {
    let start = MoviePlayer.now()
    let player = MoviePlayer(path: path)
    var device: StandInDevice?
    var attached = false
    var outcome = PlayOutcome(ended: nil, seconds: 0, dropped: 0)
    while Double(MoviePlayer.now() - start) / 1e9 < timeout {
        if !attached, let info = player.info {
            attached = true
            outcome.info = info
            if let track = info.audio {
                let format = AudioOutputFormat(sampleRate: 48000, channels: min(track.channels, 2), sample: .s16, bufferFrames: 1024)
                player.attachAudio(format)
                device = StandInDevice(feed: player.audio, format: format, speed: speed)
            } else {
                player.attachAudio(nil)
            }
        }
        let update = player.update()
        if let frame = update.frame {
            outcome.shown.append((readStamps ? FrameStamp.read(frame) : 0, update.position, MoviePlayer.now()))
        }
        during?(player, Double(MoviePlayer.now() - start) / 1e9)
        if let ended = update.ended {
            outcome.ended = ended
            break
        }
        usleep(1000)
    }
    outcome.dropped = player.droppedFrames
    let closing = MoviePlayer.now()
    player.close()
    outcome.closeSeconds = Double(MoviePlayer.now() - closing) / 1e9
    device?.stop()
    outcome.seconds = Double(MoviePlayer.now() - start) / 1e9
    return outcome
}

@Suite("Movie player")
struct MoviePlayerTests {
    @Test("a take without sound plays on the monotonic clock: every picture in order, on time, then the end")
    func videoOnly() throws {
        let path = try recordTake("video-only", seconds: 2, audio: false)
        let outcome = play(path)
        #expect(outcome.ended == .end)
        #expect(outcome.info?.audio == nil && outcome.info?.videoCodec == "h264")
        #expect(outcome.shown.map(\.stamp) == Array(0..<60), "\(outcome.shown.map(\.stamp))")
        // Each picture came within a frame period of its time on the clock, which started with the first.
        if let first = outcome.shown.first {
            for s in outcome.shown {
                let clock = Double(s.at - first.at) / 1e9 + first.time
                #expect(abs(clock - s.time) < 1.0 / 30, "picture \(s.stamp) at \(clock) s, due \(s.time) s")
            }
        }
        #expect(abs(outcome.seconds - 2) < 0.5, "played in \(outcome.seconds) s")
    }

    @Test("closing midway stops at once: no picture and no sound after the close")
    func closeMidway() throws {
        let path = try recordTake("close", seconds: 3)
        let player = MoviePlayer(path: path)
        let format = AudioOutputFormat(sampleRate: 48000, channels: 1, sample: .s16, bufferFrames: 1024)
        while player.info == nil { usleep(1000) }
        player.attachAudio(format)
        let device = StandInDevice(feed: player.audio, format: format, speed: 1)
        defer { device.stop() }
        var pictures = 0
        let until = MoviePlayer.now() + 700_000_000
        while MoviePlayer.now() < until {
            if player.update().frame != nil { pictures += 1 }
            usleep(1000)
        }
        #expect(pictures > 10)
        let t0 = MoviePlayer.now()
        player.close()
        #expect(Double(MoviePlayer.now() - t0) / 1e9 < 0.5, "close took too long")
        let after = player.update()
        #expect(after.frame == nil)
        var buffer = [UInt8](repeating: 0xAA, count: 4096)
        buffer.withUnsafeMutableBytes { player.audio.fill($0, now: MoviePlayer.now()) }
        #expect(buffer.allSatisfy { $0 == 0 }, "silence after the close")
    }

    @Test("a missing file and a file that is no movie end with a clear error at once",
          arguments: ["missing", "text", "empty"])
    func notAMovie(kind: String) throws {
        let folder = scratch("notmovie")
        let path = folder.appendingPathComponent("\(kind).mov").path
        switch kind {
        case "text": try Data("this is not a movie\n".utf8).write(to: URL(fileURLWithPath: path))
        case "empty": try Data().write(to: URL(fileURLWithPath: path))
        default: break
        }
        let outcome = play(path, timeout: 5)
        guard case let .error(message)? = outcome.ended else {
            Issue.record("expected an error, got \(String(describing: outcome.ended))")
            return
        }
        #expect(message.contains(path), "\(message)")
        #expect(outcome.seconds < 2)
    }

    @Test("a damaged corpus (cut, flipped bytes, zeroed and oversized boxes): each ends, none hangs or crashes")
    func corpus() throws {
        let source = try recordTake("corpus", seconds: 1.5)
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        let folder = scratch("corpus-files")
        var files: [(String, Data)] = []
        // Cut at 16 points, from inside the first box to just short of the end.
        for k in 0..<16 {
            let cut = k == 0 ? 20 : original.count * k / 16 + (k * 37) % 500
            files.append(("cut-\(cut)", original.prefix(cut)))
        }
        // Bytes flipped at random (the same places every run), beyond the file's first box.
        var random = SystemRandomNumberGenerator.Seeded(seed: 42)
        for k in 0..<14 {
            var d = original
            for _ in 0..<(k < 7 ? 8 : 200) {
                let i = Int.random(in: 40..<d.count, using: &random)
                d[i] ^= UInt8.random(in: 1...255, using: &random)
            }
            files.append(("flip-\(k)", d))
        }
        // Boxes zeroed whole (their first 64 bytes), or given an absurd size.
        for box in ["moov", "trak", "mdia", "stbl", "stsd", "avcC", "esds", "moof", "traf", "tfhd", "trun", "mdat", "mfra"] {
            guard let at = original.range(of: Data(box.utf8))?.lowerBound, at >= 4 else { continue }
            var zeroed = original
            zeroed.replaceSubrange((at - 4)..<min(at + 60, zeroed.count), with: Data(count: min(64, zeroed.count - at + 4)))
            files.append(("zero-\(box)", zeroed))
            var huge = original
            huge.replaceSubrange((at - 4)..<at, with: Data([0x7F, 0xFF, 0xFF, 0xF0]))
            files.append(("huge-\(box)", huge))
        }
        files.append(("noise", Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) })))
        let results = Mutex<[(String, PlayOutcome)]>([])
        let paths = try files.map { name, data in
            let path = folder.appendingPathComponent("\(name).mov").path
            try data.write(to: URL(fileURLWithPath: path))
            return (name, path)
        }
        // Three at a time; the sound is pulled 8× faster than real time so each is over quickly.
        DispatchQueue.concurrentPerform(iterations: 3) { lane in
            for (name, path) in paths.enumerated().filter({ $0.offset % 3 == lane }).map(\.element) {
                let outcome = play(path, speed: 8, timeout: 8, readStamps: false)
                results.withLock { $0.append((name, outcome)) }
            }
        }
        let all = results.withLock { $0 }
        #expect(all.count == files.count)
        var ends = 0, errors = 0, slow = 0
        for (name, outcome) in all {
            switch outcome.ended {
            case .end?: ends += 1
            case .error?: errors += 1
            case nil:
                // Not over after 8 s: only acceptable for a file whose damaged timestamps spread its
                // pictures seconds apart (each gap kept under StreamTimeline.maxJump), and only while
                // it moves on: a picture after the first, and a close that ends it at once.
                slow += 1
                #expect(outcome.shown.count > 1 && outcome.shown.last!.time > outcome.shown.first!.time,
                        "\(name) is stuck: \(outcome.shown.map(\.time))")
                #expect(outcome.closeSeconds < 0.5, "\(name): close took \(outcome.closeSeconds) s")
            }
        }
        print("corpus: \(all.count) files, \(ends) played to the end, \(errors) ended with an error, \(slow) still playing slowly by their timestamps at 8 s")
    }

    @Test("timestamps: missing ones follow on, far jumps either way carry on where the stream was, small ones stay")
    func timeline() {
        let second: Int64 = 1_000_000_000
        var t = StreamTimeline(start: 0, defaultDuration: second / 30)
        #expect(t.place(0, duration: second / 30) == 0)
        #expect(t.place(VideoDecoder.noTimestamp, duration: 0) == second / 30)
        #expect(t.place(second / 10, duration: second / 30) == second / 10)
        // A small step back is left alone (that picture is merely late).
        #expect(t.place(second / 20, duration: second / 30) == second / 20)
        // A jump an hour ahead: it carries on from where it was, and the next follows that.
        #expect(t.place(3600 * second, duration: second / 30) == second / 20 + second / 30)
        #expect(t.place(3600 * second + second / 30, duration: second / 30) == second / 20 + 2 * second / 30)
        // And an hour back again, likewise.
        #expect(t.place(second / 30, duration: second / 30) == second / 20 + 3 * (second / 30))
        // A first timestamp far from the file's start is moved to it.
        var u = StreamTimeline(start: 5 * second, defaultDuration: 0)
        #expect(u.place(Int64.max / 2, duration: second) == 5 * second)
        #expect(u.place(Int64.max / 2 + second, duration: second) == 6 * second)
    }
}

extension SystemRandomNumberGenerator {
    /// xorshift64*: the same "random" corpus on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed == 0 ? 1 : seed }
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }
}

