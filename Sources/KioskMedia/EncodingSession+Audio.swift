// The sound side of a take's session: each microphone chunk placed on the picture's time line
// (trimmed, gap-filled, its clock's drift followed), filtered (`--high-pass`) and encoded in whole
// AAC frames that end by the picture's end. On the writer's thread only.
import CFFmpeg
import KioskCore
import KioskSystem

extension EncodingSession {
    /// Drift the resampler follows (`follow`); a larger step (a gap, a jump of the device's stamps)
    /// is cut or covered by silence at once.
    static let hardDriftSeconds = 0.05

    /// Places a chunk on the video's time line and encodes whole AAC frames. What came before the
    /// first frame is trimmed; a step of 50 ms or more is cut or filled with silence; a smaller
    /// drift (a microphone's clock a little fast or slow against the camera's) is followed by
    /// stretching or squeezing the sound, so no sample is cut or inserted.
    func encode(_ chunk: AudioChunk) -> SessionStatus {
        guard let audio, let audioSettings = settings.audio else { return .ok }
        guard let origin = pictures.origin else {
            // Before the first picture: at most the last 2 s are kept to be placed against it.
            sound.early.append(chunk)
            var held = sound.early.reduce(0) { $0 + $1.frameCount }
            while held > 2 * audioSettings.sampleRate, sound.early.count > 1 { held -= sound.early.removeFirst().frameCount }
            return .ok
        }
        let rate = Int64(audioSettings.sampleRate)
        let channels = chunk.channels
        // Where the chunk's first sample belongs, in samples from the first video frame.
        var expected = Self.samples(in: chunk.timestamp.saturatingSubtracting(origin), rate: rate)
        var samples = chunk.samples[...]
        let limit = Int64((settings.maxDuration * Double(rate)).rounded(.down))
        let drift = expected - sound.queued
        if sound.queued == sound.start || abs(drift) >= Int64(Double(rate) * Self.hardDriftSeconds) {
            // The start (together with the picture), or a step: cut the overlap, or cover the gap.
            sound.drift = 0
            follow(drift: 0, rate: rate, audio: audio.encoder)
            if expected < sound.queued {
                let drop = Int(min(sound.queued - expected, Int64(chunk.frameCount)))
                samples = samples.dropFirst(drop * channels)
                expected += Int64(drop)
            }
            if expected > sound.queued {
                let gap = expected - sound.queued
                let silence = [Int16](repeating: 0, count: Int(min(gap, limit - sound.queued).clamped(0, Int64.max)) * channels)
                if !silence.isEmpty { sound.queued += Int64(audio.encoder.queue(silence[...], channels: channels)) }
            }
        } else {
            // Smoothed over about eight chunks: a device's stamps jitter by a millisecond or two.
            sound.drift += (Double(drift) - sound.drift) / 8
            follow(drift: sound.drift, rate: rate, audio: audio.encoder)
        }
        let room = Int(max(limit - sound.queued, 0))
        if samples.count / channels > room { samples = samples.prefix(room * channels) }
        if let highPass, !samples.isEmpty {
            // (A failed call leaves the sound unfiltered rather than lose it.)
            let filtered = highPass.filter.filter(samples, scratch: highPass.scratch)
            if filtered.count == samples.count { samples = filtered[...] }
        }
        if !samples.isEmpty { sound.queued += Int64(audio.encoder.queue(samples, channels: channels)) }
        return drainAudio(final: false)
    }

    /// Sets the resampler's compensation for a smoothed drift of `drift` samples: made up over the
    /// next second, at most 1 % (a microphone's clock is within 0.5 % of the camera's), none under
    /// 1 ms (the jitter of the stamps).
    private func follow(drift: Double, rate: Int64, audio: AudioEncoder) {
        let bound = Double(rate) / 100
        let delta = abs(drift) < Double(rate) / 1000 ? 0 : Int(drift.clamped(-bound, bound).rounded())
        guard delta != 0 || sound.compensation != 0 else { return }
        audio.compensate(delta: delta, over: Int(rate))
        sound.compensation = delta
    }

    /// Samples at `rate` in `nanoseconds`, rounded down; kept within ±2^52 (a chunk that far off the
    /// picture's clock is trimmed or bounded by the take's length anyway), so nothing overflows.
    static func samples(in nanoseconds: Int64, rate: Int64) -> Int64 {
        let bound: Int64 = 1 << 52
        let whole = nanoseconds / 1_000_000_000, part = nanoseconds % 1_000_000_000
        guard let w = whole.checkedMultiplied(by: rate), let total = w.checkedAdding(part * rate / 1_000_000_000) else {
            return nanoseconds < 0 ? -bound : bound
        }
        return total.clamped(-bound, bound)
    }

    /// Encodes every whole AAC frame queued that ends by the picture's end (with `final`, the rest
    /// too): sound ahead of the picture (a microphone ahead of the camera, or one held only to
    /// within 0.25 s of the clock) waits in the queue, so a take's sound ends with its picture.
    func drainAudio(final: Bool) -> SessionStatus {
        guard let audio else { return .ok }
        let pictureEnd = Int64((videoEnd * Double(audio.encoder.sampleRate)).rounded())
        while final || sound.encoded + Int64(audio.encoder.frameSize) <= pictureEnd {
            let frame: UnsafeMutablePointer<AVFrame>?
            do {
                frame = try audio.encoder.nextFrame(final: final)
            } catch {
                Log.info("writer: \(error)")
                return .stop(.error)
            }
            guard let frame else { return .ok }
            frame.pointee.pts = sound.encoded
            sound.encoded += Int64(frame.pointee.nb_samples)
            audioEnd = Double(sound.encoded) / Double(audio.encoder.sampleRate)
            let status = send(frame, to: audio.encoder.codec, stream: audio.stream)
            if status != .ok { return status }
        }
        return .ok
    }
}
