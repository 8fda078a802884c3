// The one error type for libav* calls: the raw code, the call that failed and FFmpeg's own text.
import CFFmpeg
import KioskSystem

/// FFmpeg's words for its codes (`av_strerror`).
public enum FFmpegCalls: CallErrorText {
    public static func describe(code: Int32, call: String) -> String { "\(call) failed: \(text(code)) (\(code))" }

    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "unknown error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An error returned by a libavformat / libavcodec / libswscale / libswresample call: the negative
/// AVERROR code and the C function, e.g. `avformat_open_input`.
public typealias AVError = CallError<FFmpegCalls>

extension CallError where Library == FFmpegCalls {
    /// FFmpeg's text for the code, from `av_strerror`.
    public var text: String { FFmpegCalls.text(code) }

    /// The AVERROR code for a POSIX errno, e.g. `AVError.code(posix: ENOENT)`.
    public static func code(posix: Int32) -> Int32 { kiosk_AVERROR(posix) }
    /// AVERROR_EOF.
    public static var endOfFile: Int32 { kiosk_AVERROR_EOF() }
}
