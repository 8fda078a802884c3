// What FFmpeg we run on: library versions and whether the codecs the recorder needs are present.
import CFFmpeg
import KioskSystem

/// Facts about the linked FFmpeg libraries, for `--version`, logs and start-up checks.
public enum MediaLibraries {
    /// A packed `AV_VERSION_INT` as "major.minor.micro".
    static func dotted(_ packed: UInt32) -> String {
        "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }

    /// The runtime versions (`avformat_version`, `avcodec_version`, …), which may differ from the headers'.
    public static var versions: [String: String] {
        [
            "libavformat": dotted(avformat_version()),
            "libavcodec": dotted(avcodec_version()),
            "libavutil": dotted(avutil_version()),
            "libswscale": dotted(swscale_version()),
            "libswresample": dotted(swresample_version()),
        ]
    }

    /// The version of libavcodec's headers this build was compiled against.
    public static var avcodecHeaderVersion: String { dotted(kiosk_LIBAVCODEC_VERSION_INT()) }

    /// Whether libavcodec has an encoder of this name (`avcodec_find_encoder_by_name`).
    public static func hasEncoder(_ name: String) -> Bool {
        avcodec_find_encoder_by_name(name) != nil
    }

    /// Whether libavcodec has a decoder of this name (`avcodec_find_decoder_by_name`).
    public static func hasDecoder(_ name: String) -> Bool {
        avcodec_find_decoder_by_name(name) != nil
    }

    /// Keeps FFmpeg's own log (stderr) to warnings and errors: libx264's banner and options are
    /// noise in a kiosk's journal. Each of its lines goes whole through our stderr writer
    /// (`kiosk_av_log_whole_line`), so no other thread's line lands inside it and a stderr nobody
    /// reads holds no FFmpeg call up. Global in libavutil; harmless to call again.
    public static func quietLogs() {
        if av_log_get_level() > AV_LOG_WARNING { av_log_set_level(AV_LOG_WARNING) }
        kiosk_av_log_whole_lines { line, length in
            guard let line, length > 0 else { return }
            Log.write(String(decoding: UnsafeRawBufferPointer(start: line, count: Int(length)), as: UTF8.self))
        }
    }

    /// Whether libavformat can write this container (`av_guess_format`), e.g. "mov" or "mp4".
    public static func hasMuxer(_ name: String) -> Bool {
        av_guess_format(name, nil, nil) != nil
    }
}
