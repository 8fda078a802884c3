// `--check`'s encoding trial: libx264 as a take opens it, at each step of effort, timed
// over a second of pictures, with no file: whether this machine's CPU sustains the size and rate.
import CFFmpeg
import KioskCore
import KioskSystem

public enum EncodeTrial {
    /// What a picture took: wall seconds, and the process's CPU seconds (all of libx264's threads).
    public struct Cost: Equatable, Sendable {
        public var wall: Double
        public var cpu: Double
    }

    /// The seconds a picture takes libx264 opened as a take opens it at step `effort` of
    /// `settings.effortLadder`, over `count` pictures that `picture(k)` makes (their making is not
    /// timed). Packets go nowhere.
    public static func secondsPerPicture(settings: MovieSettings, effort: Int, count: Int,
                                         picture: (Int) -> VideoFrame) throws(AVError) -> Cost {
        var settings = settings
        settings.videoEncoder = .libx264
        let encoder = try VideoEncoder(settings: settings, globalHeader: true, failure: InjectedFailure(after: nil))
        if effort > 0 { encoder.use(try VideoEncoder.openCodec(.libx264, settings: settings, globalHeader: true, effort: effort).0) }
        if let raise = settings.effortLadder[checked: effort]?.crfRaise, raise > 0 { try encoder.setCRF(settings.crf + raise) }
        let packet = try Packet()
        let length = Int64((90000 / max(settings.fps, 1)).rounded())
        var spent: Int64 = 0, cpu: Int64 = 0
        for k in 0..<max(count, 1) {
            let frame = picture(k)
            let began = MonotonicClock.now(), cpuBegan = CPUQuota.processNanoseconds()
            let made = try encoder.picture(holding: frame)
            made.pointee.pts = Int64(k) * length
            var result = avcodec_send_frame(encoder.codec.pointer, made)
            guard result >= 0 else { throw AVError(code: result, call: "avcodec_send_frame") }
            while true {
                result = avcodec_receive_packet(encoder.codec.pointer, packet.pointer)
                if result == kiosk_AVERROR_EAGAIN() || result == kiosk_AVERROR_EOF() { break }
                guard result >= 0 else { throw AVError(code: result, call: "avcodec_receive_packet") }
                av_packet_unref(packet.pointer)
            }
            spent += MonotonicClock.now() - began
            cpu += CPUQuota.processNanoseconds() - cpuBegan
        }
        return Cost(wall: Double(spent) / 1e9 / Double(max(count, 1)), cpu: Double(cpu) / 1e9 / Double(max(count, 1)))
    }
}
