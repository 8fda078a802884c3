// The player's decode threads: packets to pictures (into the frame queue) and to sound (into the
// ring), each through one loop (`run`) that skips what cannot be decoded, flushes at a seek or a
// loop, and places every timestamp on the player's timeline.
import CFFmpeg
import FoundationEssentials
import KioskCore
import KioskSystem
import Synchronization

extension MoviePlayer {
    /// The video thread: packets → pictures → the frame queue through `show` (`FrameQueue.put`,
    /// which waits for room; the fuzz target takes each picture at once instead). At a boundary
    /// (a seek, a loop) it flushes and takes the new serial; after a seek the pictures that end
    /// before the target are dropped, so the first shown is the one at the target.
    static func decodeVideo(_ decoder: VideoDecoder, _ core: PlayerCore, start: Int64, frameLength: Int64, persistent: Bool = false,
                            show: (FrameQueue.Entry) -> Bool) {
        defer { core.frames.finish() }
        var generation = core.generation.load(ordering: .acquiring)
        var timeline = StreamTimeline(start: start, defaultDuration: frameLength)
        var target: Int64?
        // The last picture dropped before a seek's target: shown after all when the target lies
        // past the last picture (a seek to the very end).
        var passed: FrameQueue.Entry?
        var retimed = 0
        defer { logRetimed(retimed + timeline.retimed, outOfRange: decoder.timestampsOutOfRange, kind: "picture") }
        run(decoder, packets: core.videoPackets, core: core, kind: "picture", persistent: persistent, boundary: { boundary in
            decoder.flush()
            retimed += timeline.retimed
            timeline = StreamTimeline(start: start, defaultDuration: frameLength, shift: boundary.shift,
                                      expected: boundary.target ?? boundary.shift)
            generation = boundary.serial
            target = boundary.target
            passed = nil
        }, ended: {
            if target != nil, let last = passed { _ = show(last) }
            (target, passed) = (nil, nil)
            core.frames.finish(generation: generation)
        }) { output in
            var (picture, duration) = output
            let span = timeline.place(picture.timestamp, duration: duration)
            if let t = target {
                if span.end <= t {
                    picture.timestamp = span.start
                    passed = FrameQueue.Entry(picture: picture, end: span.end, generation: generation)
                    return true
                }
                target = nil
                passed = nil
            }
            picture.timestamp = span.start
            return show(FrameQueue.Entry(picture: picture, end: span.end, generation: generation))
        }
    }

    /// The audio thread: waits for the device's format, then packets → samples → the ring through
    /// `play` (`AudioRing.write`, which waits for room; the fuzz target plays each chunk out at once).
    /// Boundaries as for the picture; after a seek the samples before the target are cut off.
    static func decodeAudio(_ decoder: AudioDecoder, _ core: PlayerCore, start: Int64, persistent: Bool = false,
                            play: (AudioSamples, _ generation: Int) -> Bool) {
        defer { core.ring.finish() }
        let attachment = core.audioOutput.wait { $0 == .waiting ? nil : $0 }
        guard case let .format(format) = attachment else {
            // No device: the packets are taken and dropped so the demuxer never waits for them.
            core.ring.finishForGood()
            while true {
                switch core.audioPackets.take() {
                case .closed: return
                case .end where !persistent: return
                default: continue
                }
            }
        }
        decoder.convert(to: format)
        var generation = core.generation.load(ordering: .acquiring)
        var timeline = StreamTimeline(start: start, defaultDuration: 0)
        var target: Int64?
        var retimed = 0
        defer { logRetimed(retimed + timeline.retimed, outOfRange: decoder.timestampsOutOfRange, kind: "sound chunk") }
        var late = 0
        let frameBytes = format.bytesPerFrame, rate = Int64(format.sampleRate)
        func deliver(_ samples: AudioSamples) -> Bool {
            guard samples.frames > 0 else { return true }
            let length = Int64(samples.frames) * 1_000_000_000 / rate
            var placed = samples
            var span = timeline.place(samples.timestamp, duration: length)
            if let t = target {
                // After a seek: what comes before the target is cut off, to the sample.
                if span.end <= t { return true }
                let cut = span.start < t ? Int((t - span.start) * rate / 1_000_000_000) : 0
                if cut > 0 {
                    placed.bytes.removeFirst(min(cut * frameBytes, placed.bytes.count))
                    placed.frames -= cut
                    span.start = span.start.saturatingAdding(Int64(cut) * 1_000_000_000 / rate)
                }
                target = nil
                guard placed.frames > 0 else { return true }
            }
            placed.timestamp = span.start
            // Sound whose time has passed (the clock ran on without it) would only pull the
            // picture back: skipped.
            if let clock = core.clock.time(at: MonotonicClock.now()), span.end < clock {
                late += 1
                return true
            }
            return play(placed, generation)
        }
        let finished = run(decoder, packets: core.audioPackets, core: core, kind: "sound", persistent: persistent, boundary: { boundary in
            // A loop's boundary drains the resampler first: its last samples belong to this play.
            if boundary.drainFirst, let rest = decoder.drainResampler() { _ = deliver(rest) }
            decoder.flush()
            retimed += timeline.retimed
            timeline = StreamTimeline(start: start, defaultDuration: 0, shift: boundary.shift, expected: boundary.target ?? boundary.shift)
            generation = boundary.serial
            target = boundary.target
        }, ended: {
            if let rest = decoder.drainResampler() { _ = deliver(rest) }
            core.ring.finish(generation: generation)
        }, deliver: deliver)
        if finished, !persistent, let rest = decoder.drainResampler() { _ = deliver(rest) }
        if late > 0 { Log.info("player: skipped \(late) late sound chunks") }
    }

    /// Says how many of a stream's timestamps were not believed: re-timed by its timeline (a jump
    /// over 10 s, an offset out of range), or out of range in nanoseconds (placed as missing ones).
    private static func logRetimed(_ retimed: Int, outOfRange: Int, kind: String) {
        guard retimed + outOfRange > 0 else { return }
        Log.info("player: \(retimed) \(kind) timestamps re-timed (a jump over 10 s), \(outOfRange) out of range")
    }

    /// Feeds one decoder until the end of its stream: packets in, outputs to `deliver`. A packet
    /// the decoder refuses, or an output it fails to make, is skipped and counted. Returns false
    /// when the player closed (or `deliver` said so).
    @discardableResult
    private static func run<D: StreamDecoder>(_ decoder: D, packets: PacketQueue, core: PlayerCore, kind: String,
                                              persistent: Bool = false, boundary: (Boundary) -> Void = { _ in },
                                              ended: () -> Void = {}, deliver: (D.Output) -> Bool) -> Bool {
        var errors = 0
        func skip(_ error: AVError) {
            errors += 1
            if errors <= 3 { Log.info("player: a \(kind) could not be decoded, skipped: \(error)") }
        }
        /// Takes every output ready now; false to stop.
        func receiveAll() -> Bool {
            while true {
                do {
                    switch try decoder.receive() {
                    case let .output(output): if !deliver(output) { return false }
                    case .needsInput, .drained: return true
                    }
                } catch {
                    skip(error)
                    // A decoder that failed may fail again at once: this packet's outputs are given up.
                    return true
                }
            }
        }
        /// Sends a packet (nil: the end), taking outputs as they come.
        func send(_ packet: UnsafeMutablePointer<AVPacket>?) -> Bool {
            for _ in 0..<3 {
                let status: DecoderSend
                do { status = try decoder.send(packet) } catch {
                    skip(error)
                    return receiveAll()
                }
                guard receiveAll() else { return false }
                if status != .full { return true }
            }
            // Still full after its outputs were all taken: a decoder in a bad state; skip the packet.
            skip(AVError(code: kiosk_AVERROR_EAGAIN(), call: "avcodec_send_packet"))
            return true
        }
        defer {
            if errors > 3 { Log.info("player: \(errors) \(kind)s could not be decoded in all") }
            core.status.withLock { $0.decodeErrors += errors }
        }
        while true {
            switch packets.take() {
            case let .packet(packet):
                if !send(packet.pointer) { return false }
            case .end:
                guard persistent else { return send(nil) }
                if !send(nil) { return false }
                ended()
            case let .boundary(next):
                // A loop keeps this play's last pictures (the decoder drained first); a seek does not.
                if next.drainFirst, !send(nil) { return false }
                boundary(next)
            case .closed:
                return false
            }
        }
    }
}

/// The two decoders as `run` drives them.
protocol StreamDecoder {
    associatedtype Output
    func flush()
    func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(AVError) -> DecoderSend
    func receive() throws(AVError) -> DecoderOutput<Output>
}

extension VideoDecoder: StreamDecoder {}
extension AudioDecoder: StreamDecoder {}
