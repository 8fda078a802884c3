// The one error type for libav* calls: the raw code, the call that failed and FFmpeg's own text.
import CFFmpeg

/// An error returned by a libavformat / libavcodec / libswscale / libswresample call.
public struct AVError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The negative AVERROR code the call returned.
    public let code: Int32
    /// The C function that returned it, e.g. `avformat_open_input`.
    public let call: String

    public init(code: Int32, call: String) {
        self.code = code
        self.call = call
    }

    /// FFmpeg's text for the code, from `av_strerror`.
    public var text: String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "unknown error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(call) failed: \(text) (\(code))" }

    /// The AVERROR code for a POSIX errno, e.g. `AVError.code(posix: ENOENT)`.
    public static func code(posix: Int32) -> Int32 { kiosk_AVERROR(posix) }
    /// AVERROR_EOF.
    public static var endOfFile: Int32 { kiosk_AVERROR_EOF() }
}
