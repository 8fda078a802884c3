// Cutting a byte stream from a pipe into pictures: concatenated JPEGs split on their markers (not
// on a guess at sizes), raw frames by their size, and a look at a stream's first bytes to name what
// it is when it is not what was declared. Pure: the exec camera feeds it what it reads.
import KioskCore

/// Splits concatenated JPEGs (an MJPEG stream from rpicam-vid, GStreamer's `jpegenc`, ffmpeg's
/// `-f mjpeg`) into whole pictures, SOI … EOI, walking the marker segments by their lengths and the
/// entropy-coded data by its byte stuffing, so an `FF D9` inside a segment (a thumbnail in EXIF,
/// a quantisation table) does not end the picture early. Bytes outside a picture (a banner, the
/// tail of a cut picture) are skipped and counted; a picture cut short by the start of another is
/// dropped and counted.
public struct JPEGSplitter {
    /// Bytes read and not yet given out as a picture.
    private var buffer: [UInt8] = []
    /// Where the walk through the picture at the buffer's start has got to (0: no SOI found yet).
    private var position = 0
    /// Inside entropy-coded data (after an SOS header), looking for the next marker.
    private var inScan = false
    /// Bytes skipped outside any picture, since the start.
    public private(set) var skippedBytes = 0
    /// Pictures dropped as malformed (cut short, a bad segment length, too large).
    public private(set) var brokenPictures = 0
    /// Whole pictures given out so far.
    public private(set) var pictures = 0
    /// A picture larger than this is no camera's (a stream without EOI): dropped.
    public static let maxPictureBytes = 32 << 20

    public init() {}

    /// Bytes waiting for the rest of their picture.
    public var pendingBytes: Int { buffer.count }
    /// The first bytes of the stream as read (up to 16), kept to say what it was.
    public private(set) var head: [UInt8] = []

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if head.count < 16 { head += bytes.prefix(16 - head.count) }
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next whole picture (SOI to EOI inclusive), or nil when more bytes are needed.
    public mutating func next() -> [UInt8]? {
        while true {
            if position == 0 {
                guard let start = findSOI(from: 0) else {
                    // Keep a trailing FF: it may be the first half of an SOI.
                    let keep = buffer.last == 0xFF ? 1 : 0
                    skippedBytes += buffer.count - keep
                    buffer.removeFirst(buffer.count - keep)
                    return nil
                }
                skippedBytes += start
                buffer.removeFirst(start)
                position = 2
                inScan = false
            }
            switch walk() {
            case .needMore:
                if buffer.count > Self.maxPictureBytes { dropPicture() }
                else { return nil }
            case let .end(at):
                let picture = Array(buffer[0..<at])
                buffer.removeFirst(at)
                position = 0
                pictures += 1
                return picture
            case .broken:
                dropPicture()
            }
        }
    }

    private enum Walk { case needMore, end(Int), broken }

    /// Walks on from `position` through the picture at the buffer's start.
    private mutating func walk() -> Walk {
        let n = buffer.count
        while true {
            if inScan {
                // Entropy-coded data: FF 00 is a stuffed FF, FF D0–D7 a restart marker, FF FF fill;
                // any other FF xx is the next marker.
                var p = position
                while true {
                    guard let ff = buffer[p..<n].firstIndex(of: 0xFF) else {
                        position = n
                        return .needMore
                    }
                    guard ff + 1 < n else {
                        position = ff
                        return .needMore
                    }
                    let next = buffer[ff + 1]
                    if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF { p = ff + 1; continue }
                    position = ff
                    inScan = false
                    break
                }
            }
            // At a marker: FF (any fill FFs) then its code.
            var p = position
            guard p < n else { return .needMore }
            guard buffer[p] == 0xFF else { return .broken }
            while p < n && buffer[p] == 0xFF { p += 1 }
            guard p < n else { return .needMore }
            let code = buffer[p]
            switch code {
            case 0xD9:
                return .end(p + 1)
            case 0xD8:
                // Another picture starts before this one ended: this one was cut short.
                return .broken
            case 0x01, 0xD0...0xD7:
                position = p + 1
            default:
                guard p + 2 < n else { return .needMore }
                let length = Int(buffer[p + 1]) << 8 | Int(buffer[p + 2])
                guard length >= 2, length <= Self.maxSegmentLength(code) else { return .broken }
                guard p + 1 + length <= n else { return .needMore }
                position = p + 1 + length
                if code == 0xDA { inScan = true }
            }
        }
    }

    /// The longest a segment with this marker can be: APPn and COM up to 65535 (EXIF), the others
    /// by what they can hold. A length past it is not this picture's (it was cut short, and the
    /// length read from the bytes of what came next).
    static func maxSegmentLength(_ code: UInt8) -> Int {
        switch code {
        case 0xDA: 2 + 1 + 2 * 4 + 3                  // SOS: up to 4 components
        case 0xC4: 2 + 4 * (17 + 256)                 // DHT: up to 4 tables
        case 0xDB: 2 + 4 * (1 + 128)                  // DQT: up to 4 16-bit tables
        case 0xDD: 4                                  // DRI
        case 0xC0...0xCF: 2 + 6 + 3 * 255             // SOFn (C4 is DHT, above), DAC
        default: 0xFFFF                               // APPn, COM, anything else
        }
    }

    /// Drops the picture at the buffer's start (counted) and looks for the next SOI right after
    /// its own: where the walk failed may lie far past the next picture's start (a cut picture's
    /// last segment length read from the next picture's bytes).
    private mutating func dropPicture() {
        brokenPictures += 1
        buffer.removeFirst(min(2, buffer.count))
        position = 0
        inScan = false
    }

    private func findSOI(from start: Int) -> Int? {
        var i = start
        while i + 1 < buffer.count {
            if buffer[i] == 0xFF && buffer[i + 1] == 0xD8 { return i }
            i += 1
        }
        return nil
    }
}

/// What a stream's first bytes look like, to name a stream that is not the declared format.
public enum StreamSniffer {
    /// A name for what `head` (a stream's first bytes) starts, when it is a known signature.
    public static func identify(_ head: [UInt8]) -> String? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<(offset + bytes.count)]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "MJPEG (JPEG pictures)" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "PNG" }
        if starts(Array("YUV4MPEG2".utf8)) { return "YUV4MPEG2 (y4m)" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "Matroska/WebM" }
        if starts(Array("ftyp".utf8), at: 4) { return "an MP4/MOV file" }
        if starts(Array("RIFF".utf8)) { return "RIFF (AVI)" }
        if starts([0, 0, 0, 1]) || starts([0, 0, 1]) {
            let nal = head[starts([0, 0, 1]) ? 3 : 4] & 0x1F
            if [1, 5, 6, 7, 8, 9].contains(nal) { return "H.264 (Annex B)" }
            return "H.264/HEVC (Annex B)"
        }
        return nil
    }

    /// What to say when a stream declared as MJPEG gives no picture: its start named where it can be.
    public static func notMJPEG(_ head: [UInt8]) -> String {
        let hex = head.prefix(8).map { String($0, radix: 16, uppercase: true).leftPadded(2) }.joined(separator: " ")
        let what = identify(head).map { "it looks like \($0)" } ?? "it starts \(hex.isEmpty ? "with nothing" : hex), no JPEG start marker (FF D8)"
        return "is not MJPEG as --camera-format says: \(what); raw frames need --camera-format i420, nv12 or yuyv"
    }

    /// What to say when a stream declared raw starts with a known signature (nil: it may be raw).
    public static func notRaw(_ head: [UInt8], declared: CameraPipeFormat) -> String? {
        guard let what = identify(head) else { return nil }
        let hint = what.hasPrefix("MJPEG") ? "use --camera-format mjpeg" : "the booth reads MJPEG or raw i420, nv12, yuyv"
        return "is not raw \(declared.rawValue) frames as --camera-format says: it looks like \(what); \(hint)"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
