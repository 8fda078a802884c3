// The take's length in the moov that `empty_moov` writes at the start without one. A fragmented
// file's length belongs in mvex/mehd, which FFmpeg 5.1 does not write: GStreamer's qtdemux then
// guesses it from the fragment index and comes out short. So the header gets a mehd box before any
// fragment is written (`insertMehd`), kept current at every fragment (so a crash-cut take says how
// long it is), and mvhd/tkhd/mdhd get the final lengths at a clean stop. The fields are fixed-size
// and patched in place: a crash during a patch leaves a wrong length, never a broken file.
import FoundationEssentials
import Glibc

public enum MoovDurations {
    /// The header (ftyp + moov) with an empty 64-bit mehd added at the front of mvex, the box
    /// sizes around it grown to match; nil when the header is not laid out as the muxer writes it.
    public static func insertMehd(into header: [UInt8]) -> [UInt8]? {
        guard let moov = child(named: "moov", in: header, from: 0, to: header.count), moov.body == moov.start + 8,
              let mvex = child(named: "mvex", in: header, from: moov.body, to: moov.end), mvex.body == mvex.start + 8,
              child(named: "mehd", in: header, from: mvex.body, to: mvex.end) == nil else { return nil }
        let mehd: [UInt8] = [0, 0, 0, 20] + Array("mehd".utf8) + [1, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
        var result = header
        result.insert(contentsOf: mehd, at: mvex.body)
        for box in [moov, mvex] {
            let size = UInt32(box.end - box.start + mehd.count)
            for i in 0..<4 { result[box.start + i] = UInt8(truncatingIfNeeded: size >> (8 * (3 - UInt32(i)))) }
        }
        return result
    }

    /// Where the mehd's duration field is and the movie timescale, to keep it current.
    public static func mehdField(in header: [UInt8]) -> (offset: Int, timescale: UInt64)? {
        guard let moov = child(named: "moov", in: header, from: 0, to: header.count),
              let mvhd = child(named: "mvhd", in: header, from: moov.body, to: moov.end),
              let scale = field(header, box: mvhd, v0: 12, v1: 20, wide: false), scale > 0,
              let mvex = child(named: "mvex", in: header, from: moov.body, to: moov.end),
              let mehd = child(named: "mehd", in: header, from: mvex.body, to: mvex.end),
              header[mehd.body] == 1, mehd.end - mehd.body == 12 else { return nil }
        return (mehd.body + 4, scale)
    }

    /// Writes a 64-bit big-endian duration at `offset` (the caller syncs).
    public static func writeMehd(fd: Int32, offset: Int, seconds: Double, timescale: UInt64) {
        let value = UInt64(max(seconds, 0) * Double(timescale))
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(7 - $0))) }
        _ = pwrite(fd, bytes, 8, off_t(offset))
    }

    /// Patches the moov at the start of the file open on `fd`: the movie's duration in the mvhd's
    /// timescale, and each track's in tkhd (movie timescale) and mdhd (its own timescale).
    /// `trackSeconds` is in track order. Returns false when the layout is not what the muxer writes.
    @discardableResult
    public static func patch(fd: Int32, movieSeconds: Double, trackSeconds: [Double]) -> Bool {
        var header = [UInt8](repeating: 0, count: 64 * 1024)
        let count = pread(fd, &header, header.count, 0)
        guard count > 16 else { return false }
        header = Array(header[0..<count])
        guard let moov = child(named: "moov", in: header, from: 0, to: header.count) else { return false }
        var writes: [(offset: Int, bytes: [UInt8])] = []
        guard let mvhd = child(named: "mvhd", in: header, from: moov.body, to: moov.end),
              let movieScale = field(header, box: mvhd, v0: 12, v1: 20, wide: false) else { return false }
        writes += durationWrite(header, box: mvhd, v0: 16, v1: 24, value: movieSeconds * Double(movieScale))
        var trackIndex = 0
        var position = moov.body
        while let trak = child(named: "trak", in: header, from: position, to: moov.end), trackIndex < trackSeconds.count {
            let seconds = trackSeconds[trackIndex]
            if let tkhd = child(named: "tkhd", in: header, from: trak.body, to: trak.end) {
                writes += durationWrite(header, box: tkhd, v0: 20, v1: 28, value: seconds * Double(movieScale))
            }
            if let mdia = child(named: "mdia", in: header, from: trak.body, to: trak.end),
               let mdhd = child(named: "mdhd", in: header, from: mdia.body, to: mdia.end),
               let scale = field(header, box: mdhd, v0: 12, v1: 20, wide: false) {
                writes += durationWrite(header, box: mdhd, v0: 16, v1: 24, value: seconds * Double(scale))
            }
            trackIndex += 1
            position = trak.end
        }
        for write in writes {
            guard pwrite(fd, write.bytes, write.bytes.count, off_t(write.offset)) == write.bytes.count else { return false }
        }
        return fdatasync(fd) == 0
    }

    struct Box {
        let start: Int
        let body: Int
        let end: Int
    }

    /// The first box of this type among the boxes between `from` and `to`.
    static func child(named name: String, in data: [UInt8], from: Int, to: Int) -> Box? {
        var offset = from
        let wanted = Array(name.utf8)
        while offset + 8 <= to {
            var size = Int(be(data, offset, 4))
            var body = offset + 8
            if size == 1, offset + 16 <= to {
                size = Int(be(data, offset + 8, 8))
                body = offset + 16
            }
            guard size >= 8, offset + size <= data.count else { return nil }
            if Array(data[(offset + 4)..<(offset + 8)]) == wanted { return Box(start: offset, body: body, end: offset + size) }
            offset += size
        }
        return nil
    }

    /// A full box's field at `v0` (version 0) or `v1` (version 1) bytes after its version byte.
    static func field(_ data: [UInt8], box: Box, v0: Int, v1: Int, wide: Bool) -> UInt64? {
        let version = data[box.body]
        let at = box.body + (version == 1 ? v1 : v0)
        let width = wide && version == 1 ? 8 : 4
        guard at + width <= box.end else { return nil }
        return be(data, at, width)
    }

    static func durationWrite(_ data: [UInt8], box: Box, v0: Int, v1: Int, value: Double) -> [(offset: Int, bytes: [UInt8])] {
        let version = data[box.body]
        let at = box.body + (version == 1 ? v1 : v0)
        let width = version == 1 ? 8 : 4
        guard at + width <= box.end, value.isFinite, value >= 0 else { return [] }
        let v = UInt64(value.rounded())
        let clamped = width == 4 ? min(v, UInt64(UInt32.max)) : v
        return [(at, (0..<width).map { UInt8(truncatingIfNeeded: clamped >> (8 * UInt64(width - 1 - $0))) })]
    }

    static func be(_ data: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        (0..<width).reduce(0) { $0 << 8 | UInt64(data[at + $1]) }
    }
}
