// The boomerang's loop (issue 45). The capture's pictures are each a key frame (the writer encodes a
// boomerang with a key frame interval of 1), so any of them decodes alone, and the loop is a new order
// of the same packets: forward, then back without the turning pictures twice, repeated to at least
// three seconds (BoomerangPlan.order), each packet retimed to its place. Nothing is decoded or encoded
// again: the loop of a second of 720p is written in milliseconds, and its pictures are exactly the
// captured ones. The capture's display matrix (the take's rotation), its codec parameters and its
// tags (the guestbook's question) go across; the index comes first (faststart), as a phone wants it.
// The loop is written beside the capture under a hidden name, synced, and only then renamed over it;
// the capture's pending mark (`TakeFiles.boomerangPendingPath`) goes last, so a kill at any point
// leaves either the whole capture with its mark (the next launch makes the loop again) or the loop.
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskCore
import KioskStorage
import KioskSystem

public enum BoomerangLoop {
    /// What the loop holds.
    public struct Made: Sendable, Equatable {
        /// Seconds it plays for.
        public var duration: Double
        public var bytes: Int64
        /// The pictures captured, and the pictures the loop shows (its rounds of them).
        public var pictures: Int
        public var frames: Int
    }

    /// The time base of the loop's pictures: 90 kHz, as MPEG's clocks (exact for 25, 30 and 60 fps).
    static let clock: Int32 = 90000

    /// Makes the loop of the capture at `path` in place, played at `plan.frameRate`: written beside it
    /// with the capture's mode, synced, renamed over it, the pending mark removed and the folder
    /// synced. Throws a ShareError naming the step; the capture is then as it was.
    public static func make(_ path: String, plan: BoomerangPlan) throws(ShareError) -> Made {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ShareError(step: "reading the boomerang \(path)", errno: errno) }
        let partial = TakeFiles.boomerangLoopPath(for: path)
        unlink(partial)
        do throws(ShareError) {
            let made = try write(path, to: partial, plan: plan, mode: Int(info.st_mode & 0o7777))
            guard rename(partial, path) == 0 else { throw ShareError(step: "renaming the loop over \(path)", errno: errno) }
            unlink(TakeFiles.boomerangPendingPath(for: path))
            FolderSync.sync(of: path)
            return made
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// The writer's call once a boomerang's pictures are safe: `make`, said on stderr with its time
    /// and, for a live capture, how long after its last picture (`lastPicture`, CLOCK_MONOTONIC) the
    /// loop was in place. The loop's length and size, or the capture's (`capture`) and why it is lost.
    static func loop(_ path: String, plan: BoomerangPlan, lastPicture: Int64?,
                     capture: (duration: Double, bytes: Int64)) -> (duration: Double, bytes: Int64, lost: String?) {
        let began = MonotonicClock.now()
        do throws(ShareError) {
            let made = try make(path, plan: plan)
            let now = MonotonicClock.now()
            Log.info("boomerang: \(made.pictures) pictures looped into \(made.frames) (\(String(printf: "%.2f", made.duration)) s at "
                     + "\(String(printf: "%.4g", plan.frameRate)) fps, \(made.bytes) bytes) in \(String(printf: "%.1f", Double(now - began) / 1e6)) ms"
                     + (lastPicture.map { "; in place \(String(printf: "%.0f", Double(now - $0) / 1e6)) ms after its last picture was captured" } ?? ""))
            return (made.duration, made.bytes, nil)
        } catch {
            return (capture.duration, capture.bytes, "the boomerang's loop could not be made: \(error)")
        }
    }

    /// A launch's remake of a boomerang a kill cut (`TakeFiles.recoverBoomerang`): the loop of the
    /// pictures its capture kept, at the capture's own rate (half of it with `speed` 0.5 where that
    /// is 30 fps or more); its length, nil when none can be made.
    public static func remake(_ path: String, settings: BoomerangSettings) -> Double? {
        guard let demuxer = try? Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout),
              let stream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else { return nil }
        let rates = [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate].map(av_q2d).filter { $0.isFinite && $0 > 0 }
        let plan = settings.plan(cameraFPS: rates.first ?? 30)
        do { return try make(path, plan: plan).duration } catch {
            Log.info("boomerang: \(path) cannot be looped: \(error)")
            return nil
        }
    }

    /// The capture's pictures, in presentation order, as references to their packets.
    static func pictures(of demuxer: Demuxer, stream: UnsafeMutablePointer<AVStream>) throws(ShareError) -> [Packet] {
        var pictures: [(time: Int64, packet: Packet)] = []
        do {
            while true {
                let packet = try Packet()
                guard try demuxer.nextPacket(into: packet.pointer) else { break }
                let p = packet.pointer
                guard p.pointee.stream_index == stream.pointee.index else {
                    av_packet_unref(p)
                    continue
                }
                guard p.pointee.flags & AV_PKT_FLAG_KEY != 0 else {
                    throw ShareError(step: "making the loop", reason: "a picture of the capture is not a key frame")
                }
                pictures.append((TakeTrim.time(p, stream) ?? Int64(pictures.count), packet))
            }
        } catch let error as ShareError { throw error } catch {
            throw ShareError(step: "reading the capture", reason: "\(error)")
        }
        return pictures.sorted { $0.time < $1.time }.map(\.packet)
    }

    private static func write(_ capture: String, to path: String, plan: BoomerangPlan, mode: Int) throws(ShareError) -> Made {
        let demuxer: Demuxer
        do { demuxer = try Demuxer(path: capture, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            throw ShareError(step: "opening the capture \(capture)", error)
        }
        guard let stream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw ShareError(step: "making the loop of \(capture)", reason: "the capture has no picture")
        }
        let pictures = try withExtendedLifetime(demuxer) { () throws(ShareError) in try Self.pictures(of: demuxer, stream: stream) }
        guard !pictures.isEmpty else { throw ShareError(step: "making the loop of \(capture)", reason: "the capture has no picture") }
        let order = plan.order(count: pictures.count)
        let step = "writing the loop " + path
        let output: ShareMP4
        do { output = try ShareMP4(path: path, mode: mode, container: capture.lowercased().hasSuffix(".mp4") ? "mp4" : "mov") } catch {
            throw ShareError(step: step, error)
        }
        let tick = Int64((Double(clock) / max(plan.frameRate, 1)).rounded())
        do {
            output.copyTags(from: demuxer.format)
            let target = try output.addStream(copying: stream)
            target.pointee.time_base = AVRational(num: 1, den: clock)
            target.pointee.avg_frame_rate = av_d2q(Double(clock) / Double(tick), 90000)
            try output.writeHeader()
            let scratch = try Packet()
            for (i, index) in order.enumerated() {
                let p = scratch.pointer
                let result = av_packet_ref(p, pictures[index].pointer)
                guard result >= 0 else { throw AVError(code: result, call: "av_packet_ref") }
                // The muxer may have chosen its own time base for the stream at the header.
                let tb = target.pointee.time_base, ours = AVRational(num: 1, den: clock)
                p.pointee.pts = av_rescale_q(Int64(i) * tick, ours, tb)
                p.pointee.dts = p.pointee.pts
                p.pointee.duration = av_rescale_q(tick, ours, tb)
                p.pointee.stream_index = target.pointee.index
                p.pointee.pos = -1
                try output.write(p)
            }
            let (bytes, _) = try output.finish(name: path)
            return Made(duration: Double(Int64(order.count) * tick) / Double(clock), bytes: bytes, pictures: pictures.count, frames: order.count)
        } catch { throw output.failure(at: step, error) }
    }
}
