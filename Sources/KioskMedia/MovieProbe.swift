// Reads what a movie file holds with libavformat: its streams and how long it really is (by its
// packets, since a take cut by a crash has no trailer to say so).
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

public struct MovieInfo: Sendable, Equatable {
    /// Seconds from the first to the end of the last packet, over all streams, each stream's
    /// timestamps placed as the player places them (`StreamTimeline`).
    public var duration: Double
    public var videoPackets: Int
    public var audioPackets: Int
    /// The display matrix's rotation as ffprobe shows it (av_display_rotation_get), 0 when none.
    public var rotation: Double
    /// Packets whose timestamps were not believed (a jump over 10 s, a time that does not fit in
    /// nanoseconds): they were placed after the packet before them instead.
    public var retimedPackets: Int
}

public enum MovieProbe {
    /// A read (or the opening probe) that takes longer than this ends the inspection.
    static let readTimeout: Int64 = 5_000_000_000

    /// Demuxes the whole file through the player's `Demuxer` (`avformat_open_input` with only the
    /// `file` protocol allowed, `av_read_frame`, each under `readTimeout`): it runs on every Start
    /// over a file left beside a marker, so a crafted file must neither reach other protocols nor
    /// make it trap or hang. A damaged tail ends the reading; what came before counts.
    public static func inspect(_ path: String) throws(AVError) -> MovieInfo {
        let demuxer = try Demuxer(path: path, interruption: Interruption(), timeout: readTimeout)
        let format = demuxer.format
        var info = MovieInfo(duration: 0, videoPackets: 0, audioPackets: 0, rotation: 0, retimedPackets: 0)
        for i in 0..<Int(format.pointee.nb_streams) {
            let stream = format.pointee.streams[i]!
            if stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
               let side = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) {
                info.rotation = side.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
            }
        }
        guard let packet = av_packet_alloc() else { throw AVError(code: AVError.code(posix: ENOMEM), call: "av_packet_alloc") }
        var p: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&p) }
        let start = demuxer.startTime ?? 0
        var timelines: [Int32: StreamTimeline] = [:]
        var first: Int64?, last: Int64?
        while (try? demuxer.nextPacket(into: packet)) == true {
            defer { av_packet_unref(packet) }
            let index = packet.pointee.stream_index
            guard index >= 0, index < format.pointee.nb_streams, let stream = format.pointee.streams[Int(index)] else { continue }
            let pts = packet.pointee.pts != kiosk_AV_NOPTS_VALUE() ? packet.pointee.pts : packet.pointee.dts
            guard pts != kiosk_AV_NOPTS_VALUE() else { continue }
            let tb = stream.pointee.time_base
            let duration = packet.pointee.duration > 0 ? VideoDecoder.nanoseconds(packet.pointee.duration, tb) ?? 0 : 0
            let time = VideoDecoder.timestamp(pts, tb, outOfRange: &info.retimedPackets)
            let span = timelines[index, default: StreamTimeline(start: start, defaultDuration: 0)].place(time, duration: duration)
            first = min(first ?? span.start, span.start)
            last = max(last ?? span.end, span.end)
            switch stream.pointee.codecpar.pointee.codec_type {
            case AVMEDIA_TYPE_VIDEO: info.videoPackets += 1
            case AVMEDIA_TYPE_AUDIO: info.audioPackets += 1
            default: break
            }
        }
        if let first, let last { info.duration = Double(last.saturatingSubtracting(first)) / 1e9 }
        info.retimedPackets += timelines.values.reduce(0) { $0 + $1.retimed }
        return info
    }
}

extension MovieProbe {
    /// The seconds of a file that holds at least one playable picture; nil otherwise (no file, no
    /// picture, not a movie): how storage tells a take worth keeping after a crash.
    public static func playableDuration(_ path: String) -> Double? {
        guard let info = try? inspect(path), info.videoPackets > 0 else { return nil }
        return info.duration
    }
}
