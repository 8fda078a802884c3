// FFmpeg's log lines as the booth writes them (`kiosk_av_log_whole_line`, installed by
// `MediaLibraries.quietLogs`): the prefix and the text formatted into one line before the one
// write, FFmpeg's prefix state kept across a line given in parts, control characters made '?'.
import CFFmpeg
import Foundation
import KioskCore
import KioskSystem
@testable import KioskMedia
import Testing

/// The lines the callback handed to the test's sink (a C function pointer cannot capture).
private let caught = Locked<[String]>([])

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

    /// `av_vlog` (what `av_log` calls) with one C string argument.
    static func log(_ object: UnsafeMutableRawPointer?, _ level: Int32, _ format: String, _ argument: String) {
        argument.withCString { text in withVaList([text]) { av_vlog(object, level, format, $0) } }
    }

    @Test("the installed callback: a line given in two parts (as FFmpeg does) reaches the sink as one line, with its prefix once; lines below the log level never come; MediaLibraries.quietLogs puts the booth's stderr writer back")
    func callbackGathersParts() throws {
        let context = try #require(avcodec_alloc_context3(avcodec_find_encoder_by_name("libx264")))
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&owned) }
        kiosk_av_log_whole_lines { line, length in
            guard let line else { return }
            let text = String(decoding: UnsafeRawBufferPointer(start: line, count: Int(length)), as: UTF8.self)
            // Other tests' FFmpeg lines may come meanwhile: only this test's are kept.
            if text.contains("log-line-test") { caught.withLock { $0.append(text) } }
        }
        defer { MediaLibraries.quietLogs() }
        Self.log(context, AV_LOG_ERROR, "log-line-test %s ", "one")
        Self.log(context, AV_LOG_ERROR, "%s\n", "and two")
        Self.log(context, AV_LOG_DEBUG, "log-line-test %s\n", "too detailed")
        let lines = caught.withLock { $0 }
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("[libx264 @ 0x") && line.hasSuffix("] log-line-test one and two\n"), "\(line)")
    }
}
