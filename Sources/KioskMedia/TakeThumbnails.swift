// The review trimmer's pictures (`--trim`): a few pictures of the take, evenly spaced
// along it, each decoded on the file worker from the key frame before its place (the share poster's
// scaler and turn), upright, small.
import CFFmpeg
import KioskCore
import KioskSystem

public enum TakeThumbnails {
    /// Up to `count` pictures of the take at `path`, from its start to its end, each at most
    /// `longSide` pixels on its long side and turned upright; fewer (none) where the take cannot
    /// be read (logged).
    public static func pictures(of path: String, count: Int, longSide: Int) -> [RGBPicture] {
        guard count > 0 else { return [] }
        let demuxer: Demuxer
        do { demuxer = try Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            Log.info("trimmer: \(path) cannot be opened for its pictures: \(error)")
            return []
        }
        guard let stream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else { return [] }
        let index = stream.pointee.index
        demuxer.keep(only: [index])
        let start = (demuxer.startTime ?? 0) / 1000, length = (demuxer.duration ?? 0) / 1000
        let turns = Int((MoviePlayer.rotation(of: stream) / 90).rounded()) % 4
        let decoder: VideoDecoder
        do { decoder = try VideoDecoder(stream: stream, threads: 1, maxPixels: VideoDecoder.maxCameraPixels) } catch {
            Log.info("trimmer: no decoder for \(path): \(error)")
            return []
        }
        var pictures: [RGBPicture] = []
        for i in 0..<count {
            let microseconds = start + length * Int64(2 * i + 1) / Int64(2 * count)
            guard demuxer.seek(toMicroseconds: microseconds) == nil else { continue }
            decoder.flush()
            guard let picture = picture(at: microseconds * 1000, demuxer, index, decoder) else { continue }
            do {
                let rgb = try SharePoster.scaledRGB(picture, turns: turns, longSide: longSide)
                let upright = turns == 0 ? rgb : SharePoster.turn(rgb.pixels, size: rgb.size, pitch: rgb.pitch, quarterTurns: turns)
                pictures.append(RGBPicture(pixels: upright.pixels, size: upright.size, pitch: upright.pitch))
            } catch {
                Log.info("trimmer: a picture of \(path) could not be scaled: \(error)")
            }
        }
        return withExtendedLifetime(demuxer) { pictures }
    }

    /// The first picture at or after `nanoseconds` (the stream's clock), decoded from the key frame
    /// the demuxer was sought to; the last one when the stream ends first; nil when none decodes.
    static func picture(at nanoseconds: Int64, _ demuxer: Demuxer, _ index: Int32, _ decoder: VideoDecoder) -> DecodedPicture? {
        guard let packet = try? Packet() else { return nil }
        var last: DecodedPicture?
        var ended = false
        for _ in 0..<100_000 {
            do {
                switch try decoder.receive() {
                case let .output(output):
                    if output.picture.timestamp == VideoDecoder.noTimestamp || output.picture.timestamp >= nanoseconds - 1_000_000 { return output.picture }
                    last = output.picture
                    continue
                case .drained: return last
                case .needsInput: break
                }
            } catch { return last }
            // Drained after the end: `receive` says so.
            if ended { continue }
            switch demuxer.read(into: packet.pointer) {
            case .packet:
                if packet.pointer.pointee.stream_index == index { _ = try? decoder.send(packet.pointer) }
                av_packet_unref(packet.pointer)
            case .again: continue
            case .end, .failed:
                _ = try? decoder.send(nil)
                ended = true
            }
        }
        return last
    }
}
