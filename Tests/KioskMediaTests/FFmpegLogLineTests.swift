// FFmpeg's log lines as the booth writes them (`kiosk_av_log_whole_line`, installed by
// `MediaLibraries.quietLogs`): the prefix and the text formatted into one line before the one
// write, FFmpeg's prefix state kept across a line given in parts, control characters made '?'.
import CFFmpeg
import Foundation
import Testing

@Suite("FFmpeg's log lines, whole")
struct FFmpegLogLineTests {
    /// `kiosk_av_log_line` of `format` with one C string argument.
    static func line(_ object: UnsafeMutableRawPointer?, _ format: String, _ argument: String, prefix: inout Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = argument.withCString { text in
            withVaList([text]) { arguments in
                kiosk_av_log_line(&buffer, Int32(buffer.count), object, AV_LOG_WARNING, format, arguments, &prefix)
            }
        }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(Int(length) == line.utf8.count)
        return line
    }

    @Test("an encoder's line: its \"[libx264 @ 0x…] \" prefix and its text in one line; a line given in two parts has the prefix once; escapes and other control characters become '?', tabs and newlines stay")
    func wholeLines() throws {
        let context = try #require(avcodec_alloc_context3(avcodec_find_encoder_by_name("libx264")))
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&owned) }
        var prefix: Int32 = 1
        let first = Self.line(context, "title %s\n", "bad\u{1b}[2J\u{07}name\tend", prefix: &prefix)
        #expect(first.hasPrefix("[libx264 @ 0x") && first.hasSuffix("] title bad?[2J?name\tend\n"), "\(first)")
        #expect(prefix == 1)
        let start = Self.line(context, "part %s ", "one", prefix: &prefix)
        #expect(start.hasPrefix("[libx264 @ 0x") && start.hasSuffix("] part one "), "\(start)")
        #expect(prefix == 0)
        #expect(Self.line(context, "part %s\n", "two", prefix: &prefix) == "part two\n")
        #expect(prefix == 1)
        #expect(Self.line(nil, "%s\n", "no object", prefix: &prefix) == "no object\n")
    }
}
