// A YUYV camera's frame leaves the driver's buffer as planar 4:2:0: the copy out of the buffer, which
// has to be made anyway (the buffer goes back to the driver at once), is the conversion. The encoder
// then takes the frame's own bytes (libx264 copies its input into its own frames) and the preview
// uploads its planes, so a recorded YUYV frame costs one pass over its pixels, not a copy and then a
// conversion. Each chroma sample is the average of its two rows', as the writer's own conversion
// was. A benchmark reading YUYV from a file makes its frames the same way, a band of rows at a time.
import KioskCore
import KioskPixels

public enum YUYVFrames {
    /// The planes of the 4:2:0 frame a YUYV picture of `size` becomes.
    public static func planes(for size: Size) -> [Plane] { PixelFormat.yuv420p.planes(for: size) }

    /// Rows `rows` of a YUYV picture of `size` (`source` holds the first of them, rows `pitch` bytes
    /// apart) into `target`, a 4:2:0 frame laid out as `planes(for: size)`. A band starts on an even
    /// row and holds an even number of rows, unless it ends the picture.
    public static func convert(_ source: UnsafePointer<UInt8>, pitch: Int, rows: Range<Int>, size: Size,
                               into target: UnsafeMutablePointer<UInt8>) {
        precondition(size.width % 2 == 0 && rows.lowerBound % 2 == 0 && rows.lowerBound >= 0 && rows.upperBound <= size.height
                     && (rows.count % 2 == 0 || rows.upperBound == size.height), "a YUYV band \(rows) of \(size)")
        let p = planes(for: size), first = rows.lowerBound
        kiosk_yuyv_to_420(source, pitch, size.width, rows.count,
                          target + p[0].offset + first * p[0].stride, p[0].stride,
                          target + p[1].offset + first / 2 * p[1].stride, p[1].stride,
                          target + p[2].offset + first / 2 * p[2].stride, p[2].stride)
    }

    /// A whole YUYV picture (`pitch` bytes a row) as a 4:2:0 frame.
    public static func frame(_ source: UnsafePointer<UInt8>, pitch: Int, size: Size, timestamp: Int64, sequence: UInt32) -> VideoFrame {
        let count = PixelFormat.yuv420p.frameBytes(for: size)
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            convert(source, pitch: pitch, rows: 0..<size.height, size: size, into: buffer.baseAddress!)
            initialized = count
        }
        return VideoFrame(format: .yuv420p, size: size, planes: planes(for: size), bytes: bytes, timestamp: timestamp, sequence: sequence)
    }
}
