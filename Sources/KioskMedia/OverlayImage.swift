// The operator's overlay PNG (`--overlay`, `--overlay-portrait`): read and judged before any pixel is
// decoded (its signature, every chunk whole up to IEND, the size in IHDR, whether it can be
// transparent), then decoded once with libavcodec's PNG decoder and made straight RGBA with swscale.
// A file refused says why in words an operator can act on.
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

public enum OverlayImage {
    /// The largest width and height an overlay may have (`OverlayPicture.maxSide`, which `--overlay`'s help says).
    public static let maxSide = OverlayPicture.maxSide
    /// The largest file read: a PNG of 8192x8192 RGBA that does not compress at all is 256 MiB.
    static let maxFileBytes = 300 * 1024 * 1024

    /// The overlay in `path`, or why it cannot be one (a sentence naming the file).
    public static func load(_ path: String) -> Result<OverlayPicture, OverlayError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(OverlayError(path, "cannot be read: \(String(cString: strerror(errno)))")) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(OverlayError(path, "is a folder, not a PNG file")) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(OverlayError(path, "is not a regular file")) }
        if info.st_size == 0 { return .failure(OverlayError(path, "is empty (0 bytes), not a PNG")) }
        if info.st_size > maxFileBytes { return .failure(OverlayError(path, "is \(info.st_size / (1024 * 1024)) MiB, more than any overlay of \(maxSide)x\(maxSide) needs")) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(OverlayError(path, "cannot be read: \(String(cString: strerror(errno)))"))
        }
        let bytes = [UInt8](data)
        let header: PNGHeader
        do throws(PNGProblem) { header = try PNGHeader.read(bytes) } catch { return .failure(OverlayError(path, error.reason)) }
        switch decode(bytes, header) {
        case let .success(picture): return .success(picture)
        case let .failure(error): return .failure(OverlayError(path, "cannot be decoded: \(error.text)"))
        }
    }

    /// libavcodec's PNG decoder on the whole file, then swscale to RGBA (palette, grey, 16-bit and
    /// RGB layouts alike; alpha kept).
    private static func decode(_ bytes: [UInt8], _ header: PNGHeader) -> Result<OverlayPicture, AVError> {
        do throws(AVError) {
            let context = try CodecContext(decoderNamed: "png")
            context.pointer.pointee.max_pixels = Int64(maxSide * maxSide)
            context.pointer.pointee.thread_count = 1
            try context.open()
            let packet = try Packet(), frame = try Frame()
            var r = av_new_packet(packet.pointer, Int32(bytes.count))
            guard r >= 0 else { throw AVError(code: r, call: "av_new_packet") }
            bytes.withUnsafeBufferPointer { _ = memcpy(packet.pointer.pointee.data, $0.baseAddress!, bytes.count) }
            r = avcodec_send_packet(context.pointer, packet.pointer)
            guard r >= 0 else { throw AVError(code: r, call: "avcodec_send_packet") }
            r = avcodec_receive_frame(context.pointer, frame.pointer)
            guard r >= 0 else { throw AVError(code: r, call: "avcodec_receive_frame") }
            let f = frame.pointer.pointee
            guard Int(f.width) == header.width, Int(f.height) == header.height else {
                throw AVError(code: kiosk_AVERROR_INVALIDDATA(), call: "the PNG decoder (\(f.width)x\(f.height), not IHDR's \(header.width)x\(header.height))")
            }
            let size = Size(width: header.width, height: header.height)
            var rgba = [UInt8](repeating: 0, count: size.width * size.height * 4)
            let format = AVPixelFormat(rawValue: f.format)
            let key = Scaler.Key(source: format, sourceWidth: f.width, sourceHeight: f.height,
                                 target: AV_PIX_FMT_RGBA, targetWidth: f.width, targetHeight: f.height,
                                 sourceFullRange: true, targetFullRange: true, bt709: false, flags: SWS_POINT)
            let scaler = try Scaler(key)
            try rgba.withUnsafeMutableBufferPointer { out throws(AVError) in
                try scaler.scale(f.planePointers.map { $0.map { UnsafePointer($0) } }, pitches: f.planePitches,
                                 into: [out.baseAddress], pitches: [size.width * 4])
            }
            return .success(OverlayPicture(size: size, rgba: rgba))
        } catch {
            return .failure(error)
        }
    }
}

/// What the booth checks of a PNG before it decodes it: the signature, the chunks (each whole, up to
/// IEND), IHDR's size and colour type, and a tRNS chunk where the colour type has no alpha.
struct PNGHeader: Equatable {
    let width: Int
    let height: Int
    let colourType: UInt8
    let hasTransparency: Bool

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func read(_ bytes: [UInt8]) throws(PNGProblem) -> PNGHeader {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
                throw PNGProblem("is not a PNG: it is a JPEG (a JPEG has no transparency; save the overlay as a PNG with an alpha channel)")
            }
            throw PNGProblem("is not a PNG (it does not start with the PNG signature)")
        }
        func word(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var at = 8
        var ihdr: (width: Int, height: Int, type: UInt8)?
        var transparency = false
        while true {
            // Length, type, data, CRC: a chunk that does not fit in the file is a file cut short.
            guard at + 8 <= bytes.count else { throw PNGProblem("is cut short: it ends before its IEND chunk (a truncated PNG)") }
            let length = word(at)
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            guard length <= Int(Int32.max), at + 12 + length <= bytes.count else {
                throw PNGProblem("is cut short: its \(type.excerpt(8)) chunk needs \(length) bytes the file does not have (a truncated PNG)")
            }
            if at == 8 {
                guard type == "IHDR", length == 13 else { throw PNGProblem("is not a valid PNG: its first chunk is not IHDR") }
                ihdr = (word(at + 8), word(at + 12), bytes[at + 17])
            }
            if type == "tRNS" { transparency = true }
            if type == "IEND" { break }
            at += 12 + length
        }
        guard let ihdr else { throw PNGProblem("is not a valid PNG: it has no IHDR chunk") }
        guard ihdr.width > 0, ihdr.height > 0 else { throw PNGProblem("is not a valid PNG: it is \(ihdr.width)x\(ihdr.height)") }
        guard ihdr.width <= OverlayImage.maxSide, ihdr.height <= OverlayImage.maxSide else {
            throw PNGProblem("is \(ihdr.width)x\(ihdr.height), too large: an overlay is at most \(OverlayImage.maxSide)x\(OverlayImage.maxSide) (design it at the take's size)")
        }
        // Colour types 4 and 6 carry alpha; 0 (grey), 2 (RGB) and 3 (palette) only with a tRNS chunk.
        let alpha = ihdr.type == 4 || ihdr.type == 6 || transparency
        guard alpha else {
            let kind = ihdr.type == 3 ? "a palette PNG" : ihdr.type == 0 ? "a grey PNG" : "an RGB PNG"
            throw PNGProblem("is \(kind) without alpha (no tRNS chunk): an overlay needs transparency where the picture shows through; save it as RGBA")
        }
        return PNGHeader(width: ihdr.width, height: ihdr.height, colourType: ihdr.type, hasTransparency: alpha)
    }
}

/// Why a file is no PNG an overlay can be, said after its name.
struct PNGProblem: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension OverlayImage {
    /// The overlay in `path` as the booth keeps it (OverlayFiles): decoded, then scaled down to
    /// `keptSide`; the full-size decode (an 8192x8192 PNG is 256 MiB of RGBA, twice over in the
    /// decoder) is freed at once, as large blocks kept (MallocArenas) would hold on to it.
    @Sendable public static func loadKept(_ path: String) -> Result<OverlayPicture, OverlayError> {
        let result = load(path).map(reduced)
        MallocArenas.giveBack()
        return result
    }

    /// The shorter side an overlay is kept at, at most: it covers any picture up to 1920 pixels on
    /// its longer side (a 1080p take, a 1080p screen) by scaling down only, and an 8192x8192 PNG
    /// is kept in 14 MiB instead of 256.
    public static let keptSide = 1920

    /// `picture` scaled down so that its shorter side is `keptSide` (premultiplied while it is
    /// scaled, so no colour bleeds in from transparent pixels); as it is when it is that small.
    static func reduced(_ picture: OverlayPicture) -> OverlayPicture {
        let (w, h) = (picture.size.width, picture.size.height)
        let short = min(w, h)
        guard short > keptSide else { return picture }
        let size = Size(width: max(1, (w * keptSide + short / 2) / short), height: max(1, (h * keptSide + short / 2) / short))
        do throws(AVError) {
            return OverlayPicture(size: size, rgba: try OverlayPlanes.scaledStraight(picture, to: size))
        } catch {
            Log.info("overlay: could not scale the \(w)x\(h) picture down (\(error)); kept at full size")
            return picture
        }
    }
}
