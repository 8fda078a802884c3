// What the parser says to a person who got something wrong (issue 30): the real name near a typo,
// -h, a bad optional value named as that option's, a folder where a take goes, an encoder this
// FFmpeg lacks, and --help's exit statuses against docs/interface.md's.
import Foundation
import Testing
@testable import KioskCore
@testable import KioskOptions

/// A parser that sees the machine as `host` says.
func parser(host: HostFacts, files: [String: String] = [:]) -> OptionParser {
    OptionParser(readFile: { path in
        guard let text = files[path] else { throw UsageError("No such file or directory") }
        return text
    }, host: host)
}

func usageError(_ args: [String], host: HostFacts, files: [String: String] = [:]) -> String? {
    do {
        _ = try parser(host: host, files: files).parse(args)
        return nil
    } catch {
        return error.message
    }
}

@Suite("Option messages")
struct OptionMessagesTests {
    @Test("edit distances: insertions, deletions, substitutions, and a swap of neighbours as one edit", arguments: [
        ("", "", 0), ("", "fps", 3), ("fps", "", 3), ("fps", "fps", 0), ("fsp", "fps", 1), ("max-durations", "max-duration", 1),
        ("windowd", "windowed", 1), ("kitten", "sitting", 3), ("ca", "abc", 3), ("sesion", "session", 1), ("sessoin", "session", 1),
    ])
    func distances(a: String, b: String, expected: Int) {
        #expect(NearestName.distance(a, b) == expected, "\(a) → \(b)")
    }

    @Test("an unknown option, config key or mode one or two edits from a real one is answered with it; one further off, or a name too short to tell, with none", arguments: [
        (["--max-durations", "5"], "unknown option '--max-durations' (did you mean --max-duration?)"),
        (["--fsp", "25"], "unknown option '--fsp' (did you mean --fps?)"),
        (["--windowd"], "unknown option '--windowd' (did you mean --windowed?)"),
        (["--outptu-dir=/srv"], "unknown option '--outptu-dir' (did you mean --output-dir?)"),
        (["--camera.exposur", "auto"], "unknown option '--camera.exposur' (did you mean --camera.exposure?)"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--x"], "unknown option '--x'"),
        (["-fps", "25"], "unexpected argument '-fps' (options start with --: did you mean --fps?)"),
        (["-x"], "unexpected argument '-x' (options start with --)"),
        (["plya", "a.mov"], "unexpected argument 'plya': did you mean play? (a mode is one of play, check, send, list-cameras, reel, console; options start with --)"),
        (["--config", "k.conf"], "k.conf:2: unknown key 'max-durations' (did you mean max-duration?)"),
    ])
    func didYouMean(args: [String], message: String) {
        let files = ["k.conf": "fps = 25\nmax-durations = 60\n"]
        #expect(usageError(args, files: files) == message)
    }

    @Test("a config key is answered only with a key a file may hold, not a command-line option")
    func configKeysOnly() {
        #expect(usageError(["--config", "k.conf"], files: ["k.conf": "plays = a.mov\n"]) == "k.conf:1: unknown key 'plays'")
        #expect(usageError(["--config", "k.conf"], files: ["k.conf": "sesion = loop\n"]) == "k.conf:1: unknown key 'sesion' (did you mean session?)")
    }

    @Test("-h is --help, wherever it stands")
    func shortHelp() throws {
        #expect(try parser().parse(["-h"]) == .help)
        #expect(try parser().parse(["--fps", "25", "-h"]) == .help)
    }

    @Test("an optional value that does not fit is named as that option's, saying what it should be; a fitting one, or none, is taken")
    func optionalValues() throws {
        #expect(usageError(["--windowed", "800x480x"]) == "--windowed: '800x480x' is not a size WxH, like 1280x720")
        #expect(usageError(["--mirror-preview", "maybe"]) == "--mirror-preview: 'maybe' is not yes or no")
        #expect(try record(["--windowed", "800x480"]).screen.window == .windowed(Size(width: 800, height: 480)))
        #expect(try record(["--windowed", "no"]).screen.window == .fullscreen)
        #expect(try record(["--windowed", "--fps", "25"]).screen.window == .windowed(nil))
        #expect(try record(["--high-contrast", "--large-text", "off"]).screen.highContrast)
    }

    @Test("--output naming a folder says it is one and points to --output-dir; a file in it is fine; unchecked, the extension's message stands")
    func outputFolder() throws {
        let host = HostFacts(isFolder: { ["/srv/booth", "/srv/booth/", "/srv/takes.mov"].contains($0) })
        #expect(usageError(["--output", "/srv/booth"], host: host)
                == "--output: '/srv/booth' is a folder; name a file in it (like /srv/booth/take.mov), or use --output-dir /srv/booth for a folder of takes each under its own name")
        #expect(usageError(["--output", "/srv/booth/"], host: host)?.hasPrefix("--output: '/srv/booth/' is a folder; name a file in it (like /srv/booth/take.mov)") == true)
        #expect(usageError(["--output", "/srv/takes.mov"], host: host)?.hasPrefix("--output: '/srv/takes.mov' is a folder;") == true)
        #expect(usageError(["--config", "k.conf"], host: host, files: ["k.conf": "output = /srv/booth\n"])?.hasPrefix("k.conf:1: output: '/srv/booth' is a folder;") == true)
        let c = try parser(host: host).parse(["--output", "/srv/booth/guest.mov"])
        guard case let .record(configuration) = c else { Issue.record("\(c)"); return }
        #expect(configuration.storage.output == "/srv/booth/guest.mov")
        #expect(usageError(["--output", "/srv/booth"]) == "--output: '/srv/booth' must be a file name ending in .mov or .mp4")
    }

    @Test("--video-encoder takes auto or an encoder the host offers; another name is refused with the list (and the near one), on the command line and in a file")
    func encoders() throws {
        let host = HostFacts(videoEncoders: ["libx264", "h264_vaapi", "h264_v4l2m2m"])
        for name in ["auto", "libx264", "h264_vaapi"] {
            #expect(usageError(["--video-encoder", name], host: host) == nil, "\(name)")
        }
        #expect(usageError(["--video-encoder", "h265"], host: host)
                == "--video-encoder: 'h265' is not an H.264 encoder of this FFmpeg (auto or one of libx264, h264_vaapi, h264_v4l2m2m)")
        #expect(usageError(["--video-encoder", "libx246"], host: host)
                == "--video-encoder: 'libx246' is not an H.264 encoder of this FFmpeg (did you mean libx264? auto or one of libx264, h264_vaapi, h264_v4l2m2m)")
        #expect(usageError(["--config", "k.conf"], host: host, files: ["k.conf": "video-encoder = hevc_vaapi\n"])?
            .hasPrefix("k.conf:1: video-encoder: 'hevc_vaapi' is not an H.264 encoder of this FFmpeg") == true)
        // A reload (SIGHUP) reads the file with the same parser: it is refused, not found out at Start.
        let reload = ConfigurationSource(parser: parser(host: host, files: ["k.conf": "video-encoder = h265\n"]), arguments: ["--config", "k.conf"])
        #expect(throws: UsageError.self) { try reload.read() }
        // The syntax's own message still comes for a name that is no word; unchecked, any word is taken.
        #expect(usageError(["--video-encoder", "x264; rm"])?.hasPrefix("--video-encoder: 'x264; rm'") == true)
        #expect(usageError(["--video-encoder", "h265"]) == nil)
    }

    @Test("--help's exit statuses are docs/interface.md's, every one of them")
    func exitStatuses() throws {
        let docs = try OptionTextsTests.interface
        let section = try #require(docs.components(separatedBy: "\n## Exit status\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        let codes = section.split(separator: "\n").compactMap { line -> String? in
            let cells = OptionDocs.cells(String(line))
            return line.hasPrefix("| ") && cells.count >= 2 && Int(cells[0]) != nil ? cells[0] : nil
        }
        #expect(codes == ["0", "1", "2", "3"])
        // The paragraph from "Exit status: " to its full stop, its lines joined.
        let paragraph = try #require(OptionParser.helpText.components(separatedBy: "\nExit status: ").dropFirst().first?.components(separatedBy: ".\n").first)
        let line = paragraph.replacingOccurrences(of: "\n", with: " ")
        let said = line.split(separator: ";").compactMap { String($0).trimmingWhitespace.split(separator: " ").first.map(String.init) }
        #expect(said == codes, "\(line)")
    }
}
