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

/// The files of a take: deleting the previous one before a new take, as the seed does, unless the
/// previous run was cut off mid-take, in which case that clip is moved aside and reported.
public enum TakeFiles {
    /// A clip that was moved aside.
    public struct Recovered: Sendable, Equatable {
        public var path: String
        public var duration: Double
    }

    /// The take is used (Use Video): the parent owns it from now on, so its marker goes. In a loop
    /// session it is first renamed `<name>-YYYYMMDD-HHMMSS.<ext>` beside the output, so the next
    /// guest's take cannot replace it. The path the parent gets, and what went wrong if the rename
    /// failed: the take then stays where it is with its marker, so the next Start moves it aside as
    /// recovered rather than deleting it.
    public static func handOver(_ output: String, rename: Bool, now: Date = Date()) -> (path: String, failure: String?) {
        var path = output
        if rename {
            let url = URL(fileURLWithPath: output)
            let stem = url.deletingPathExtension().path + "-" + LocalTime.stamp("%Y%m%d-%H%M%S", at: now)
            var target = stem + "." + url.pathExtension
            var n = 2
            while FileManager.default.fileExists(atPath: target) {
                target = stem + "-\(n)." + url.pathExtension
                n += 1
            }
            guard Glibc.rename(output, target) == 0 else {
                let failure = "could not hand over \(output) as \(target): \(String(cString: strerror(errno))); it stays where it is and the next Start keeps it as recovered"
                Log.info(failure)
                return (output, failure)
            }
            path = target
        }
        if unlink(MovieWriter.markerPath(for: output)) != 0 && errno != ENOENT {
            Log.info("could not remove the marker of \(output): \(String(cString: strerror(errno)))")
        }
        FileSink.syncFolder(of: path)
        return (path, nil)
    }

    /// Retake, or a new take after this process's own finished one (nobody wanted it): the take and
    /// its marker go.
    public static func discard(_ output: String) {
        for path in [output, MovieWriter.markerPath(for: output)] where unlink(path) != 0 && errno != ENOENT {
            Log.info("could not delete \(path): \(String(cString: strerror(errno)))")
        }
        FileSink.syncFolder(of: output)
    }

    /// Before a take (and on Retake): recover an interrupted take, or delete the old file.
    public static func discardPrevious(at output: String, now: Date = Date()) -> Recovered? {
        let marker = MovieWriter.markerPath(for: output)
        let fm = FileManager.default
        defer { try? fm.removeItem(atPath: marker) }
        // A cut a kill stopped (`--trim`): the take is whole without it.
        unlink(TakeTrim.partialPath(for: output))
        guard fm.fileExists(atPath: marker) else {
            try? fm.removeItem(atPath: output)
            return nil
        }
        guard fm.fileExists(atPath: output), let info = try? MovieProbe.inspect(output), info.videoPackets > 0 else {
            // The marker without a playable file: nothing worth keeping.
            try? fm.removeItem(atPath: output)
            return nil
        }
        let url = URL(fileURLWithPath: output)
        let stamp = LocalTime.stamp("%Y%m%d-%H%M%S", at: now)
        var target = url.deletingPathExtension().path + ".recovered-" + stamp + "." + url.pathExtension
        var n = 2
        while fm.fileExists(atPath: target) {
            target = url.deletingPathExtension().path + ".recovered-" + stamp + "-\(n)." + url.pathExtension
            n += 1
        }
        guard (try? fm.moveItem(atPath: output, toPath: target)) != nil else { return nil }
        FileSink.syncFolder(of: target)
        return Recovered(path: target, duration: info.duration)
    }
}
