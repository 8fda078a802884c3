// Test-only, shared by the test targets: the hostile-timestamp corpus (issue 12). Small files (1 to
// 2 s, 160x120) made at test time with the ffmpeg CLI: offsets at the ends of Int64's range, streams
// offset from each other, huge durations, negative starts, jumps both ways, a 33-bit wrap, and
// sample-rate and picture-size changes mid-stream, in MKV, MP4/MOV and MPEG-TS.
import Foundation

/// One file of the corpus.
public struct HostileMovie: Sendable, CustomStringConvertible {
    /// The file's name, its container in its extension.
    public let name: String
    /// What is hostile about it (and what ffmpeg made of it).
    public let note: String
    /// Seconds of pictures and sound it really holds, whatever its timestamps say.
    public let content: Double
    /// Whether it must play to its end; false: there is nothing to play (ffmpeg decodes nothing
    /// from it either), and an error is the right answer.
    public let plays: Bool
    fileprivate let recipe: Recipe

    public var description: String { name }
}

/// How a file is made.
private enum Recipe: Sendable {
    /// One ffmpeg run with these arguments, then the output path.
    case ffmpeg([String])
    /// MPEG-TS segments (each made by ffmpeg with its arguments), their bytes put end to end: what a
    /// recorder that restarts, or a broadcast that splices, leaves.
    case joined([[String]])
    /// MPEG-TS segments put together by ffmpeg's concat demuxer with `-c copy`, into this file's
    /// container: the first segment's headers, the second's pictures and sound as they are.
    case concatenated([[String]])
}

public enum HostileMovies {
    private static func picture(_ seconds: Double = 1, size: String = "160x120", rate: Int = 30) -> [String] {
        ["-t", "\(seconds)", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)"]
    }
    private static func sound(_ seconds: Double = 1, rate: Int = 48000) -> [String] {
        ["-t", "\(seconds)", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate)"]
    }
    private static let encode = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "10", "-c:a", "aac"]
    /// Both, encoded: one second of 30 fps pictures and 48 kHz sound.
    private static let both = picture() + sound() + encode
    /// The largest offset the ffmpeg CLI takes: INT64_MAX microseconds, a hair under Int64.max ns.
    private static let maxOffset = "9223372036.854"

    private static func movie(_ name: String, _ note: String, content: Double = 1, plays: Bool = true, _ recipe: Recipe) -> HostileMovie {
        HostileMovie(name: name, note: note, content: content, plays: plays, recipe: recipe)
    }

    /// Every file of the corpus.
    public static let all: [HostileMovie] = [
        movie("offset-max.mkv", "-output_ts_offset 9223372036.854: the issue's file; a picture's end passes Int64.max ns",
              .ffmpeg(both + ["-output_ts_offset", maxOffset])),
        movie("offset-max.mp4", "the same offset in MP4", .ffmpeg(both + ["-output_ts_offset", maxOffset])),
        movie("offset-max.ts", "the same offset in MPEG-TS (33-bit timestamps: it wraps)", .ffmpeg(both + ["-output_ts_offset", maxOffset])),
        movie("audio-max.mka", "sound alone (44.1 kHz) at the same offset: the sound's clock near Int64.max",
              .ffmpeg(sound(rate: 44100) + ["-c:a", "aac", "-output_ts_offset", maxOffset])),
        movie("offset-min.mkv", "-output_ts_offset -9223372036.854, negative timestamps kept: no start time at all",
              .ffmpeg(both + ["-avoid_negative_ts", "disabled", "-output_ts_offset", "-" + maxOffset])),
        movie("offset-min.mov", "the same in MOV: its edit list puts every picture before the start (ffmpeg decodes none)",
              plays: false, .ffmpeg(both + ["-avoid_negative_ts", "disabled", "-output_ts_offset", "-" + maxOffset])),
        movie("negative-start.mp4", "a start at -0.5 s (an edit list cuts the first half)",
              .ffmpeg(both + ["-avoid_negative_ts", "disabled", "-output_ts_offset", "-0.5"])),
        movie("itsoffset-video.mkv", "-itsoffset 100000 on the pictures: they come 100000 s after the sound",
              .ffmpeg(["-itsoffset", "100000"] + picture() + sound() + encode)),
        movie("itsoffset-audio.mp4", "-itsoffset -1000 on the sound", .ffmpeg(picture() + ["-itsoffset", "-1000"] + sound() + encode)),
        movie("huge-duration.mkv", "the last picture lasts 10^15 ms: the header says 10^12 s",
              .ffmpeg(both + ["-bsf:v", "setts=duration=if(eq(N\\,29)\\,1e15\\,DURATION)"])),
        movie("jump-forward.mkv", "the pictures jump 100000 s ahead halfway (setts)",
              .ffmpeg(both + ["-bsf:v", "setts=ts=if(gte(N\\,15)\\,TS+100000000\\,TS)"])),
        movie("jump-forward.mp4", "the same jump in MP4", .ffmpeg(both + ["-bsf:v", "setts=ts=if(gte(N\\,15)\\,TS+1536000000\\,TS)"])),
        movie("jump-to-max.mkv", "the pictures jump to about Int64.max ns halfway",
              .ffmpeg(both + ["-bsf:v", "setts=ts=if(gte(N\\,15)\\,TS+9223372036000\\,TS)"])),
        movie("video-beyond.mkv", "the pictures jump past Int64.max ns halfway (av_rescale_q gives INT64_MIN)",
              .ffmpeg(both + ["-bsf:v", "setts=ts=if(gte(N\\,15)\\,TS+10000000000000\\,TS)"])),
        movie("audio-jump.mkv", "the sound jumps 100000 s ahead a third of the way",
              .ffmpeg(both + ["-bsf:a", "setts=ts=if(gte(N\\,20)\\,TS+100000000\\,TS)"])),
        movie("audio-beyond.mkv", "the sound (44.1 kHz, so resampled) jumps past Int64.max ns: INT64_MIN less the resampler's delay",
              .ffmpeg(picture() + sound(rate: 44100) + encode + ["-bsf:a", "setts=ts=if(gte(N\\,20)\\,TS+10000000000000\\,TS)"])),
        movie("jumps.ts", "three 0.5 s segments at 0, 40 and 1 s, joined: 40 s ahead, then 39 s back", content: 1.5,
              .joined([0, 40, 1].map { picture(0.5) + sound(0.5) + encode + ["-output_ts_offset", "\($0)"] })),
        movie("wrap.ts", "MPEG-TS timestamps that wrap at 2^33 ticks midway", .ffmpeg(both + ["-output_ts_offset", "95441.8"])),
        movie("changes.ts", "160x120 at 30 fps with 44.1 kHz sound, then 320x240 at 25 fps with 48 kHz, joined", content: 2,
              .joined(changingSegments)),
        movie("changes.mkv", "the same two segments through the concat demuxer, -c copy, in MKV", content: 2,
              .concatenated(changingSegments)),
        movie("changes.mov", "the same in MOV", content: 2, .concatenated(changingSegments)),
    ]

    /// The second starts where the first ends, so the join is a change of size and rate, not of time.
    private static let changingSegments = [
        picture() + sound(rate: 44100) + encode,
        picture(size: "320x240", rate: 25) + sound(rate: 48000) + encode + ["-output_ts_offset", "1"],
    ]

    /// Makes `movies` (the whole corpus unless told) in `folder` with the ffmpeg CLI; each with its path.
    public static func make(in folder: URL, _ movies: [HostileMovie] = all) throws -> [(movie: HostileMovie, path: String)] {
        try movies.map { movie in
            let path = folder.appendingPathComponent(movie.name).path
            switch movie.recipe {
            case let .ffmpeg(arguments):
                try ffmpeg(arguments + [path])
            case let .joined(segments):
                let parts = try segmentFiles(segments, for: movie, in: folder)
                var bytes = Data()
                for part in parts { bytes += try Data(contentsOf: URL(fileURLWithPath: part)) }
                try bytes.write(to: URL(fileURLWithPath: path))
            case let .concatenated(segments):
                let parts = try segmentFiles(segments, for: movie, in: folder)
                let list = path + ".txt"
                try parts.map { "file '\($0)'\n" }.joined().write(toFile: list, atomically: true, encoding: .utf8)
                try ffmpeg(["-f", "concat", "-safe", "0", "-i", list, "-c", "copy", path])
            }
            return (movie, path)
        }
    }

    private static func segmentFiles(_ segments: [[String]], for movie: HostileMovie, in folder: URL) throws -> [String] {
        try segments.enumerated().map { k, arguments in
            let part = folder.appendingPathComponent("\(movie.name).part\(k).ts").path
            try ffmpeg(arguments + [part])
            return part
        }
    }

    private static func ffmpeg(_ arguments: [String]) throws {
        let run = try runProgram(["ffmpeg", "-v", "error", "-y"] + arguments)
        guard run.status == 0 else { throw CorpusError(message: "ffmpeg \(arguments.joined(separator: " ")): \(run.stderr)") }
    }

    struct CorpusError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
