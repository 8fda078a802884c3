// The booth's screenshot (a 24-bit BMP, bottom-up, as the `screenshot` command writes it) made a
// JPEG for the console's Devices page (`tjCompress2` straight from the BMP's rows: BGR, bottom-up):
// a phone on the booth's Wi-Fi fetches one a second, so the picture is a JPEG of tens of KiB, not
// a BMP or a PNG of a MiB.
import CTurboJPEG

public enum ScreenshotJPEG {
    /// The BMP's size and where its rows start, when it is the booth's kind (24-bit, uncompressed,
    /// bottom-up) and whole; nil otherwise.
    public static func bmpLayout(_ bmp: [UInt8]) -> (width: Int, height: Int, offset: Int, pitch: Int)? {
        guard bmp.count >= 54, bmp[0] == UInt8(ascii: "B"), bmp[1] == UInt8(ascii: "M") else { return nil }
        func u32(_ at: Int) -> Int { Int(bmp[at]) | Int(bmp[at + 1]) << 8 | Int(bmp[at + 2]) << 16 | Int(bmp[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bmp[at]) | Int(bmp[at + 1]) << 8 }
        let (offset, width, height) = (u32(10), u32(18), u32(22))
        guard u16(28) == 24, u32(30) == 0, width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
        let pitch = (width * 3 + 3) & ~3
        guard offset >= 54, offset + pitch * height <= bmp.count else { return nil }
        return (width, height, offset, pitch)
    }

    /// The BMP as a baseline JPEG (4:2:0, quality 80) and its size; nil when it is no booth BMP or
    /// libjpeg-turbo refuses.
    public static func jpeg(fromBMP bmp: [UInt8]) -> (jpeg: [UInt8], width: Int, height: Int)? {
        guard let layout = bmpLayout(bmp), let handle = tjInitCompress() else { return nil }
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let result = bmp.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress! + layout.offset, Int32(layout.width), Int32(layout.pitch), Int32(layout.height),
                        Int32(TJPF_BGR.rawValue), &jpeg, &length, Int32(TJSAMP_420.rawValue), 80, TJFLAG_BOTTOMUP)
        }
        defer { tjFree(jpeg) }
        guard result == 0, let jpeg else { return nil }
        return (Array(UnsafeBufferPointer(start: jpeg, count: Int(length))), layout.width, layout.height)
    }
}
