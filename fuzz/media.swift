// libFuzzer target: the bytes as a movie file, through what the booth runs on one: MovieProbe (a
// Start's look at a take left beside its marker), then the player's own steps (`MoviePlayer.open`,
// `readPackets`, `decodeVideo`, `decodeAudio`) on this one thread, each picture and sound chunk
// taken as the screen and the sound device take them. Built into KioskMedia by bench/fuzz.
import CFFmpeg
import Foundation
import KioskCore
import KioskSystem

/// The bound on each input's work: packets read, and the largest picture decoded (a bigger one is
/// refused by the decoder, as the player refuses pictures over its `maxPixels`).
private let maxPackets = 200
private let options = {
    var o = MoviePlayer.Options()
    o.maxPixels = 320 * 240
    o.decoderThreads = 1
    o.readTimeout = 2
    return o
}()
/// What the sound device is said to take: 44.1 kHz, so 48 kHz sound is resampled (and the
/// resampler's delay comes off its timestamps).
private let device = AudioOutputFormat(sampleRate: 44100, channels: 2, sample: .s16, bufferFrames: 512)

/// The file the bytes are written to, in memory: the demuxer opens a path ("file:" only).
private let path = "/dev/shm/kiosk-fuzz-media-\(getpid())"

/// Once, before the first input: FFmpeg's own log is silenced (a broken file makes it talk on every
/// packet), and the file goes at exit (a crash leaves it for a look).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzMediaInitialize(_ argc: UnsafeMutablePointer<Int32>,
                                _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    av_log_set_level(AV_LOG_QUIET)
    atexit { unlink(path) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMedia(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write \(path)")
    }
    _ = try? MovieProbe.inspect(path)
    play()
    return 0
}

/// The player's demux, picture and sound steps one after the other: the packets (at most
/// `maxPackets`, from at most 64 KB) wait in the player's queues, which hold that many without
/// waiting.
private func play() {
    let core = PlayerCore(path: path, options: options)
    guard let opening = MoviePlayer.open(core) else { return }
    MoviePlayer.readPackets(opening, core, limit: maxPackets)
    if let video = opening.video {
        let scaler = PictureScaler()
        var pixels: [UInt8] = []
        MoviePlayer.decodeVideo(video, core, start: opening.start, frameLength: opening.frameLength) { entry in
            // The UI's step: the picture due now, copied out as the screen would.
            guard core.frames.put(entry),
                  let picture = core.frames.takeDue(clock: entry.picture.timestamp, generation: entry.generation).entry?.picture
            else { return false }
            _ = try? picture.videoFrame()
            let pitch = picture.size.width * 4, bytes = pitch * picture.size.height
            guard bytes > 0 else { return true }
            if pixels.count < bytes { pixels = [UInt8](repeating: 0, count: bytes) }
            pixels.withUnsafeMutableBytes { _ = try? scaler.writeXRGB(picture, into: $0.baseAddress!, pitch: pitch) }
            return true
        }
    }
    if let audio = opening.audio {
        core.ring.configure(device)
        core.audioOutput.update { $0 = .format(device) }
        var buffer = [UInt8](repeating: 0, count: device.bufferFrames * device.bytesPerFrame)
        MoviePlayer.decodeAudio(audio, core, start: opening.start) { samples, generation in
            // The device's pulls, until the chunk is played out.
            guard core.ring.write(samples, generation: generation) else { return false }
            while core.ring.queued.bytes > 0 {
                buffer.withUnsafeMutableBytes { core.ring.fill($0, now: MonotonicClock.now()) }
            }
            return true
        }
    }
}
