// libFuzzer target: the bytes as one picture from an MJPEG camera (a V4L2 buffer, or a picture an
// exec camera's command wrote), through the camera's decoder: libjpeg-turbo, then libavcodec for
// what turbo gives up. The decoder is kept from one input to the next, as a capture session keeps
// it from picture to picture. Built into KioskMedia by bench/fuzz.
import CFFmpeg
import KioskCore

/// Pictures over 640x480 are refused (a camera's decoder refuses over 8192x8192; smaller here so
/// each input stays quick).
nonisolated(unsafe) private var decoder: CameraJPEGDecoder?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzJPEGInitialize(_ argc: UnsafeMutablePointer<Int32>,
                               _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    av_log_set_level(AV_LOG_QUIET)
    decoder = try? CameraJPEGDecoder(maxPixels: 640 * 480)
    return decoder == nil ? 1 : 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let decoder else { fatalError("no decoder") }
    guard let frame = try? decoder.decode(UnsafeRawBufferPointer(start: data, count: size), timestamp: 0, sequence: 0) else { return 0 }
    // What the preview and the encoder read: every plane within the frame's bytes.
    let expected = PixelFormat.yuv420p.planes(for: frame.size)
    precondition(frame.size.width > 0 && frame.size.height > 0 && frame.size.width * frame.size.height <= 640 * 480)
    precondition(frame.format != .yuv420p || (frame.planes == expected && frame.bytes.count == PixelFormat.yuv420p.frameBytes(for: frame.size)))
    return 0
}
