// Owns one ALSA PCM handle (`snd_pcm_t`), closed with the object. Every raw snd_pcm_* call the
// capture side makes sits in this file, so the unsafe surface is one page to review.
import CALSA
import FoundationEssentials
import Glibc
import KioskSystem

/// A parsed ALSA configuration tree (`snd_config_t`), deleted with the object.
///
/// Tests (and a booth that wants a private device definition) open a PCM from a configuration
/// text with `snd_pcm_open_lconf` instead of the global configuration, so no ALSA environment
/// variable has to be set before alsa-lib first reads its files, and parallel tests don't share it.
final class ALSAConfig {
    let handle: OpaquePointer

    /// Parses `text` (alsa.conf syntax) with `snd_config_load` from an `snd_input_buffer_open` input.
    init(text: String) throws(ALSAError) {
        var top: OpaquePointer?
        let made = snd_config_top(&top)
        guard made >= 0, let top else { throw ALSAError(code: made, call: "snd_config_top") }
        var input: OpaquePointer?
        // Size -1: a C string, which the input copies.
        var result = text.withCString { snd_input_buffer_open(&input, $0, -1) }
        if result >= 0, let input {
            result = snd_config_load(top, input)
            snd_input_close(input)
        }
        guard result >= 0 else {
            snd_config_delete(top)
            throw ALSAError(code: result, call: "snd_config_load(configuration text)")
        }
        handle = top
    }

    deinit { snd_config_delete(handle) }
}

/// An open ALSA PCM.
public final class ALSAPCM {
    public enum Direction: Sendable { case capture, playback }

    /// What a capture set-up came to after negotiation with the device.
    public struct CaptureParameters: Equatable, Sendable {
        public var rate: Int
        public var channels: Int
        public var periodFrames: Int
        public var bufferFrames: Int
    }

    /// Why capture stopped flowing: an overrun or a suspend that `recover` handles, or a failure
    /// (the device is gone or broken). Flow states, not thrown errors.
    public enum Interruption: Equatable, Sendable {
        /// -EPIPE: the application did not read in time and the ring buffer overflowed.
        case overrun
        /// -ESTRPIPE: the system suspended the device.
        case suspended
        /// Anything else (-ENODEV after an unplug, -EIO, -EBADFD, ...).
        case failed(ALSAError)
    }

    /// The outcome of `wait`.
    public enum WaitResult: Equatable, Sendable {
        case ready
        case timedOut
        /// The wake descriptor became readable (the capture thread is asked to stop).
        case woken
        case interrupted(Interruption)
    }

    /// The outcome of `read`.
    public enum ReadResult: Equatable, Sendable {
        case frames(Int)
        case interrupted(Interruption)
    }

    /// `snd_pcm_status` reduced to what the timestamps need.
    public struct Status: Equatable, Sendable {
        /// The state is RUNNING (not XRUN, SUSPENDED, DISCONNECTED, ...), so the rest is meaningful.
        public var isRunning: Bool
        /// `snd_pcm_status_get_htstamp` in nanoseconds on the clock set by `tstamp_type`; 0 when the
        /// PCM gives none.
        public var timestamp: Int64
        /// Frames between the application pointer and the sample being captured at `timestamp`
        /// (`snd_pcm_status_get_delay`): for capture, what is buffered plus what is in flight.
        public var delay: Int
    }

    public let name: String
    let handle: OpaquePointer
    /// The tree the PCM was opened from, kept until the PCM is closed (deinit closes the PCM first,
    /// then the stored properties go), because plugins may still refer to its nodes.
    private let config: ALSAConfig?

    /// Opens the PCM with `snd_pcm_open` (blocking mode), or with `snd_pcm_open_lconf` from a
    /// configuration text that defines `pcm.<name>` when `configText` is given.
    public init(name: String, direction: Direction, configText: String? = nil) throws(ALSAError) {
        let config = try configText.map { text throws(ALSAError) in try ALSAConfig(text: text) }
        var pcm: OpaquePointer?
        let stream = direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        // What alsa-lib says while it opens goes into this one error (or one log line), not raw to
        // stderr (ALSAMessages).
        let (opened, said) = ALSAMessages.collected { () -> Int32 in
            config.map { snd_pcm_open_lconf(&pcm, name, stream, 0, $0.handle) } ?? snd_pcm_open(&pcm, name, stream, 0)
        }
        let result = switch opened { case let .success(code): code }
        // Its first word and its last: what it could not find, and what that left unopened (the
        // steps of its config's evaluation between them said nothing a person acts on).
        let told = said.isEmpty ? "" : " (ALSA: " + (said.count > 2 ? [said[0], said[said.count - 1]] : said).joined(separator: " … ") + ")"
        guard result >= 0, let pcm else { throw ALSAError(code: result, call: "snd_pcm_open(\(name))" + told) }
        if !said.isEmpty { Log.info("ALSA, opening \(name):\(told)") }
        self.name = name
        self.handle = pcm
        self.config = config
    }

    deinit { snd_pcm_close(handle) }

    /// The PCM's type as ALSA names it (`snd_pcm_type_name`), e.g. "NULL", "HW", "FILE".
    public var typeName: String { String(cString: snd_pcm_type_name(snd_pcm_type(handle))) }

    /// Sets the PCM up for capture and prepares it: S16 interleaved, the rate nearest `rate`,
    /// `channels` (nil: the device's own count, at most 2), periods near 10 ms (within 10–20 ms
    /// when the device allows), a buffer of about 200 ms, and status timestamps on CLOCK_MONOTONIC
    /// (`snd_pcm_sw_params_set_tstamp_mode(ENABLE)`, `..._set_tstamp_type(MONOTONIC)`).
    public func configureCapture(rate: Int, channels: Int?) throws(ALSAError) -> CaptureParameters {
        var hw: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hw), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(handle, hw), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(handle, hw, SND_PCM_ACCESS_RW_INTERLEAVED),
                  "snd_pcm_hw_params_set_access(RW_INTERLEAVED)")
        try check(snd_pcm_hw_params_set_format(handle, hw, kiosk_SND_PCM_FORMAT_S16()),
                  "snd_pcm_hw_params_set_format(S16); use plughw: or default for a device without it")

        var channelCount = UInt32(channels ?? 0)
        if channels == nil {
            // The device's own count: a mono microphone stays mono, a stereo one (or a plugin that
            // converts anything, like "default") gives stereo. More than 2 would need mixing down.
            var low: UInt32 = 0, high: UInt32 = 0
            try check(snd_pcm_hw_params_get_channels_min(hw, &low), "snd_pcm_hw_params_get_channels_min")
            try check(snd_pcm_hw_params_get_channels_max(hw, &high), "snd_pcm_hw_params_get_channels_max")
            guard low <= 2 else {
                throw ALSAError(code: -EINVAL, call: "snd_pcm_hw_params_set_channels(\(low) or more only; use plughw:)")
            }
            channelCount = min(high, 2)
        }
        try check(snd_pcm_hw_params_set_channels(handle, hw, channelCount),
                  "snd_pcm_hw_params_set_channels(\(channelCount))")

        var rateValue = UInt32(rate)
        var dir: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(handle, hw, &rateValue, &dir), "snd_pcm_hw_params_set_rate_near(\(rate))")

        // 10–20 ms periods when the device has them; some only offer fixed sizes, and then the
        // nearest to 10 ms is still better than refusing the microphone.
        var low: UInt32 = 10_000, high: UInt32 = 20_000
        var lowDir: Int32 = 0, highDir: Int32 = 0
        _ = snd_pcm_hw_params_set_period_time_minmax(handle, hw, &low, &lowDir, &high, &highDir)
        var periodTime: UInt32 = 10_000
        try check(snd_pcm_hw_params_set_period_time_near(handle, hw, &periodTime, &dir), "snd_pcm_hw_params_set_period_time_near")
        // A deep buffer rides out a reader held up (a machine starved, a VM paused, the whole booth
        // stopped for a moment): up to 2 s of sound wait in it and arrive late, where a 200 ms one
        // overran and the time was recorded as silence. As deep as the device allows with its
        // periods (a USB microphone's 1024 periods: the 2 s; a laptop's HDA 32: 320 ms). Latency
        // does not matter: every chunk carries its capture time, read at each period as before.
        var bufferTime: UInt32 = 2_000_000
        try check(snd_pcm_hw_params_set_buffer_time_near(handle, hw, &bufferTime, &dir), "snd_pcm_hw_params_set_buffer_time_near")
        try check(snd_pcm_hw_params(handle, hw), "snd_pcm_hw_params")

        var period: snd_pcm_uframes_t = 0, buffer: snd_pcm_uframes_t = 0
        try check(snd_pcm_hw_params_get_rate(hw, &rateValue, &dir), "snd_pcm_hw_params_get_rate")
        try check(snd_pcm_hw_params_get_channels(hw, &channelCount), "snd_pcm_hw_params_get_channels")
        try check(snd_pcm_hw_params_get_period_size(hw, &period, &dir), "snd_pcm_hw_params_get_period_size")
        try check(snd_pcm_hw_params_get_buffer_size(hw, &buffer), "snd_pcm_hw_params_get_buffer_size")

        var sw: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&sw), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(handle, sw), "snd_pcm_sw_params_current")
        // Not fatal: a PCM without timestamps (or on another clock) still captures, and the caller
        // then counts samples from the start instead (ALSAMicrophone checks the first stamp).
        _ = snd_pcm_sw_params_set_tstamp_mode(handle, sw, SND_PCM_TSTAMP_ENABLE)
        _ = snd_pcm_sw_params_set_tstamp_type(handle, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC)
        try check(snd_pcm_sw_params_set_avail_min(handle, sw, period), "snd_pcm_sw_params_set_avail_min")
        try check(snd_pcm_sw_params(handle, sw), "snd_pcm_sw_params")
        try check(snd_pcm_prepare(handle), "snd_pcm_prepare")

        return CaptureParameters(rate: Int(rateValue), channels: Int(channelCount),
                                 periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    /// Starts capture (`snd_pcm_start`); the caller notes the time as the first sample's when the
    /// PCM gives no timestamps.
    public func start() throws(ALSAError) { try check(snd_pcm_start(handle), "snd_pcm_start") }

    /// Waits up to `milliseconds` for a period to be readable (`snd_pcm_wait`), so the capture loop
    /// sees a stop request or a stalled device even though its reads block.
    public func wait(milliseconds: Int32) -> WaitResult {
        while true {
            let result = snd_pcm_wait(handle, milliseconds)
            if result == 1 { return .ready }
            if result == 0 { return .timedOut }
            if result == -EINTR { continue }
            return .interrupted(interruption(Int(result), "snd_pcm_wait(\(name))"))
        }
    }

    /// Like `wait(milliseconds:)`, but also returns as soon as `wakeFD` becomes readable, so a stop
    /// never waits out the timeout. alsa-lib still decides readiness (`snd_pcm_wait(0)`: its own
    /// check of the pointer, its plugins' poll_revents, an overrun noticed exactly as before); our
    /// poll on the PCM's descriptors and the wake pipe only sleeps until one of them stirs.
    public func wait(milliseconds: Int32, wakeFD: Int32) -> WaitResult {
        let count = Int(snd_pcm_poll_descriptors_count(handle))
        var fds = [pollfd](repeating: pollfd(fd: -1, events: 0, revents: 0), count: max(count, 0) + 1)
        let filled = count > 0 ? fds.withUnsafeMutableBufferPointer { snd_pcm_poll_descriptors(handle, $0.baseAddress, UInt32(count)) } : 0
        // Driver paranoia: a PCM without descriptors to poll still has snd_pcm_wait.
        guard count > 0, filled == count else { return wait(milliseconds: milliseconds) }
        fds[count] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.now() + Int64(milliseconds) * 1_000_000
        var stirredInVain = false
        while true {
            switch wait(milliseconds: 0) {
            case .ready: return .ready
            case let .interrupted(why): return .interrupted(why)
            case .timedOut, .woken: break
            }
            let left = (deadline - MonotonicClock.now()) / 1_000_000
            if left <= 0 { return .timedOut }
            // A descriptor that stirred without a period (a plugin's own fd): do not spin on it.
            let timeout = stirredInVain ? Int32(1) : Int32(left)
            for i in fds.indices { fds[i].revents = 0 }
            let ready = stirredInVain ? poll(&fds[count], 1, timeout) : poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR {
                return .interrupted(.failed(ALSAError(code: -errno, call: "poll(\(name))")))
            }
            if fds[count].revents != 0 { return .woken }
            stirredInVain = ready > 0 && !stirredInVain
        }
    }

    /// Reads up to `frames` frames into `buffer` (`snd_pcm_readi`, blocking), retrying EINTR/EAGAIN:
    /// the only place that does.
    public func read(into buffer: UnsafeMutableBufferPointer<Int16>, frames: Int) -> ReadResult {
        while true {
            let result = snd_pcm_readi(handle, buffer.baseAddress, snd_pcm_uframes_t(frames))
            if result >= 0 { return .frames(Int(result)) }
            if result == -EINTR || result == -EAGAIN { continue }
            return .interrupted(interruption(result, "snd_pcm_readi(\(name))"))
        }
    }

    /// The state, timestamp and delay now (`snd_pcm_status`); nil if the call fails.
    public func status() -> Status? {
        var raw: OpaquePointer?
        guard snd_pcm_status_malloc(&raw) >= 0, let raw else { return nil }
        defer { snd_pcm_status_free(raw) }
        guard snd_pcm_status(handle, raw) >= 0 else { return nil }
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(raw, &stamp)
        return Status(isRunning: snd_pcm_status_get_state(raw) == SND_PCM_STATE_RUNNING,
                      // Driver paranoia: a stamp that does not fit in nanoseconds is none.
                      timestamp: Int64.nanoseconds(seconds: Int64(stamp.tv_sec), fraction: Int64(stamp.tv_nsec), unit: 1) ?? 0,
                      delay: Int(snd_pcm_status_get_delay(raw)))
    }

    /// Brings the PCM back to running after an overrun or a suspend; nil when it runs again.
    ///
    /// `snd_pcm_recover` handles the overrun (it prepares the PCM). A suspend is handled here
    /// because `snd_pcm_recover` waits for `snd_pcm_resume` in an unbounded loop, and a capture
    /// thread that never returns cannot be stopped: we try to resume for at most about a second,
    /// then prepare (losing what the device held, which the caller covers with silence).
    public func recover(from interruption: Interruption) -> ALSAError? {
        switch interruption {
        case .failed(let error):
            return error
        case .overrun:
            let result = snd_pcm_recover(handle, -EPIPE, 1)
            if result < 0 { return ALSAError(code: result, call: "snd_pcm_recover(\(name), EPIPE)") }
        case .suspended:
            var result = snd_pcm_resume(handle)
            for _ in 0..<10 where result == -EAGAIN {
                usleep(100_000)
                result = snd_pcm_resume(handle)
            }
            if result < 0 {
                result = snd_pcm_prepare(handle)
                if result < 0 { return ALSAError(code: result, call: "snd_pcm_prepare(\(name)) after a suspend") }
            }
        }
        // After prepare the stream waits for a start; after a resume it already runs.
        if snd_pcm_state(handle) == SND_PCM_STATE_PREPARED {
            let result = snd_pcm_start(handle)
            if result < 0 { return ALSAError(code: result, call: "snd_pcm_start(\(name)) after recovery") }
        }
        return nil
    }

    private func interruption(_ code: Int, _ call: String) -> Interruption {
        switch Int32(code) {
        case -EPIPE: return .overrun
        case -ESTRPIPE: return .suspended
        default: return .failed(ALSAError(code: Int32(code), call: call))
        }
    }

    private func check(_ result: Int32, _ call: @autoclosure () -> String) throws(ALSAError) {
        if result < 0 { throw ALSAError(code: result, call: call()) }
    }
}
