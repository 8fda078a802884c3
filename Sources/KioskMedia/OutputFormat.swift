// The output AVFormatContext that the take's muxer and a copied MP4 (ShareMP4) are each made of: a
// container writing through our own IOContext instead of a file libavformat opens.
import CFFmpeg

/// Owns an output AVFormatContext (`avformat_alloc_output_context2`, `avformat_free_context`) and
/// keeps the IOContext it writes through (`pb`: custom IO, not the context's to close).
final class OutputFormat {
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// Kept as long as the context, which writes through it.
    let io: IOContext

    /// `container`: a muxer's short name ("mov", "mp4"); `url`: the file's name as the muxer sees it.
    init(container: String, url: String, io: IOContext) throws(AVError) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        let result = avformat_alloc_output_context2(&context, nil, container, url)
        guard result >= 0, let context else { throw AVError(code: result, call: "avformat_alloc_output_context2(\(container))") }
        context.pointee.pb = io.pointer
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        pointer = context
        self.io = io
    }

    deinit {
        // Custom IO: the IOContext frees itself; only detached here.
        pointer.pointee.pb = nil
        avformat_free_context(pointer)
    }

    /// A new stream (`avformat_new_stream`); the context owns it.
    func newStream() throws(AVError) -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(pointer, nil) else {
            throw AVError(code: AVError.code(posix: ENOMEM), call: "avformat_new_stream")
        }
        return stream
    }
}
