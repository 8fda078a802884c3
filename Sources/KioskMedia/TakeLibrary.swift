// The library's listing (`--library`): the output folder's accepted takes, newest first
// (by the folder's counter, never by file times), each with its length (MovieProbe) and a thumbnail
// kept beside it as a hidden file (`.NAME.thumb.jpg`), made once from its first key frame with the
// share poster's frame grab (SharePoster) and written as a new file (NewFile, via PhotoFiles'
// writer). A take that no longer decodes (truncated, garbage) is left out, never shown broken;
// photos (JPEGs) are not videos and are not listed, nor a take the operator hid (`hideTake`). Retention deleting a take deletes its
// thumbnail (TakeFolder.enforce).
//
// Blocking file work: called on the booth's file worker only, never on the UI thread.
import CFFmpeg
import CTurboJPEG
import FoundationEssentials
import KioskContract
import KioskCore
import KioskStorage
import KioskSystem

public enum TakeLibrary {
    /// A thumbnail's long side at most, in pixels.
    static let thumbnailLongSide = 320
    /// Takes under this many seconds of pictures are not worth showing (and a file cut to its
    /// header has none).
    static let shortest = 0.1

    /// One take listed: its path, its length in seconds (to the millisecond) and its thumbnail's
    /// path.
    public struct Take: Equatable, Sendable {
        public var path: String
        public var duration: Double
        public var thumbnail: String
        /// The thumbnail's JPEG as kept beside the take (nil when it could not be read back): the
        /// screen decodes it when its cell is first drawn (`picture(ofJPEG:)`), so 500 listed takes
        /// hold their JPEGs (a few KB each), not their pixels.
        public var jpeg: [UInt8]?

        /// The thumbnail's pixels (decoded now), or nil.
        public var picture: RGBPicture? { jpeg.flatMap(TakeLibrary.picture(ofJPEG:)) }
    }

    /// How many takes the library shows at most: the newest.
    public static let shown = 500

    /// The accepted takes of `folder` that decode, newest first, each with its thumbnail (made now
    /// if it is missing, with `mode`); at most `limit` of them, and how many older takes that
    /// leaves out (said, never silent). A take hidden by the operator, or whose guest did not allow
    /// the booth's screen (`--consent` without `slideshow`), is not listed: the library and the
    /// slideshow show takes to whoever stands before the booth.
    public static func list(_ folder: TakeFolder, mode: Int, limit: Int = shown) -> (takes: [Take], leftOut: Int) {
        var listed: [Take] = []
        var leftOut = 0
        for entry in folder.accepted().reversed() where isMovie(entry.name) && !entry.hidden && Consent.allows(entry.consent, .slideshow) {
            guard listed.count < limit else {
                leftOut += 1
                continue
            }
            let path = folder.file(entry.name)
            if let take = look(at: path, mode: mode) { listed.append(take) }
        }
        return (listed, leftOut)
    }

    /// Whether the name is a movie's (.mov, .mp4), not a photo's.
    static func isMovie(_ name: String) -> Bool {
        let ext = URL(fileURLWithPath: name).pathExtension.lowercased()
        return ext == "mov" || ext == "mp4"
    }

    /// The take at `path` with its length and thumbnail, or nil when it does not decode.
    public static func look(at path: String, mode: Int) -> Take? {
        let info: MovieInfo
        do { info = try MovieProbe.inspect(path) } catch {
            Log.info("library: \(path) left out: \(error)")
            return nil
        }
        guard info.videoPackets > 0, info.duration >= shortest else {
            Log.info("library: \(path) left out: \(info.videoPackets) pictures, \(info.duration) s")
            return nil
        }
        let thumbnail = TakeFiles.thumbnailPath(of: path)
        if !FileManager.default.fileExists(atPath: thumbnail) {
            // Its first key frame must decode, or the take is not shown.
            let made: [UInt8]
            do { made = try thumbnailJPEG(of: path) } catch {
                Log.info("library: \(path) left out: \(error)")
                return nil
            }
            if case let .failure(error) = PhotoFiles.writeNew(made, at: thumbnail, mode: mode) {
                Log.info("library: thumbnail of \(path) not written: \(error)")
            }
        }
        let jpeg = FileManager.default.contents(atPath: thumbnail).map { [UInt8]($0) }
        return Take(path: path, duration: (info.duration * 1000).rounded() / 1000, thumbnail: thumbnail, jpeg: jpeg)
    }

    /// A thumbnail's pixels (`tjDecompress2` to packed RGB), or nil when it does not decode (or is
    /// larger than a thumbnail can be).
    public static func picture(of thumbnail: String) -> RGBPicture? {
        FileManager.default.contents(atPath: thumbnail).flatMap { picture(ofJPEG: [UInt8]($0)) }
    }

    /// A thumbnail's pixels from its JPEG's bytes, or nil (see `picture(of:)`).
    public static func picture(ofJPEG bytes: [UInt8]) -> RGBPicture? {
        guard !bytes.isEmpty, let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0,
              width > 0, height > 0, width <= 4 * Int32(thumbnailLongSide), height <= 4 * Int32(thumbnailLongSide) else { return nil }
        var rgb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        guard tjDecompress2(handle, bytes, UInt(bytes.count), &rgb, width, width * 3, height, Int32(TJPF_RGB.rawValue), 0) == 0 else {
            return nil
        }
        return RGBPicture(pixels: rgb, size: Size(width: Int(width), height: Int(height)), pitch: Int(width) * 3)
    }

    /// The JPEG of the take's first key frame, upright, at most `thumbnailLongSide` on its long side.
    static func thumbnailJPEG(of path: String) throws(ShareError) -> [UInt8] {
        let step = "making the thumbnail of \(path)"
        let demuxer: Demuxer
        do { demuxer = try Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            throw ShareError(step: step, error)
        }
        let format = demuxer.format
        let video = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard video >= 0, let stream = format.pointee.streams[Int(video)] else { throw ShareError(step: step, reason: "no video stream") }
        let packet: Packet
        do { packet = try Packet() } catch { throw ShareError(step: step, error) }
        while true {
            let read: Bool
            do { read = try demuxer.nextPacket(into: packet.pointer) } catch { throw ShareError(step: step, error) }
            guard read else { throw ShareError(step: step, reason: "no key frame") }
            if packet.pointer.pointee.stream_index == video, packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 {
                return try withExtendedLifetime(demuxer) { () throws(ShareError) in
                    try SharePoster.jpeg(of: packet, in: stream, longSide: thumbnailLongSide, step: step).bytes
                }
            }
            av_packet_unref(packet.pointer)
        }
    }
}
