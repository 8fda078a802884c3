// The guestbook's sound through the binary (issue 44): `--loudness` sets each take's integrated
// loudness at its hand-over (measured here with ffmpeg's own ebur128, not ours), its picture's
// packets untouched and its sound where it was; `--high-pass` takes the rumble out as it records.
// The fake microphone (Tests/FakeALSAMicrophone) plays a known sound through the real capture code.
import Foundation
import KioskContract
import KioskCore
import KioskTestSupport
import Testing

@Suite("The guestbook's sound: --loudness and --high-pass, through the binary")
struct LoudnessEndToEndTests {
    /// The fake microphone playing `raw` (S16LE stereo 48 kHz) in a loop: the booth's environment.
    static func microphone(playing raw: String, in folder: URL) throws -> [String: String] {
        try MicrophoneClockEndToEndTests.fakeMicrophone(in: folder, "file \"\(raw)\"")
    }

    /// Speech-like noise: pink noise whose level a 4 Hz tremolo swings by 80 % (syllables), made by
    /// ffmpeg's anoisesrc and tremolo, set to `lufs` by ffmpeg's ebur128 (peaks past full scale are
    /// clipped, as a microphone's converter clips them): raw S16LE stereo at 48 kHz.
    static func speechLikeNoise(in folder: URL, lufs: Double) throws -> String {
        let base = folder.appendingPathComponent("noise-base.raw").path, raw = folder.appendingPathComponent("noise.raw").path
        let make = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                                   "anoisesrc=color=pink:seed=7:amplitude=0.25:duration=8,tremolo=f=4:d=0.8",
                                   "-ac", "2", "-ar", "48000", "-f", "s16le", base])
        try #require(make.status == 0, "\(make.stderr)")
        let level = try measure(["-f", "s16le", "-ac", "2", "-ar", "48000", "-i", base]).integrated
        let scale = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "s16le", "-ac", "2", "-ar", "48000", "-i", base,
                                    "-af", String(format: "volume=%.2fdB", lufs - level), "-f", "s16le", raw])
        try #require(scale.status == 0, "\(scale.stderr)")
        return raw
    }

    /// ffmpeg's ebur128 over the sound `input` names (ffmpeg's input arguments): integrated
    /// loudness (LUFS) and true peak (dBTP).
    static func measure(_ input: [String]) throws -> (integrated: Double, truePeak: Double) {
        let run = try runProgram(["ffmpeg", "-hide_banner", "-nostats"] + input + ["-map", "0:a:0", "-af", "ebur128=peak=true", "-f", "null", "-"])
        try #require(run.status == 0, "\(run.stderr)")
        let summary = run.stderr.components(separatedBy: "Summary:").last ?? ""
        func value(after label: String) -> Double? {
            summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
                .flatMap { line in line.split(separator: " ").compactMap { Double($0) }.first }
        }
        let integrated = try #require(value(after: "I:"), "\(summary)")
        let peak = try #require(value(after: "Peak:"), "\(summary)")
        return (integrated, peak)
    }

    /// Each of the take's video packets, in order: its dts, pts, size and MD5 (ffmpeg's framemd5 of a
    /// stream copy, without its duration field). The duration is left out: a take stepped down to
    /// every 2nd picture carries each packet's nominal 1/30 s, where the leveled copy's muxer writes
    /// the gap to the next (3000 and 6000 at 90 kHz, ci75), with the same bytes at the same times.
    static func videoPacketSums(_ path: String) throws -> [String] {
        let run = try runProgram(["ffmpeg", "-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy", "-f", "framemd5", "-"])
        try #require(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            // stream, dts, pts, duration, size, hash
            var fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.count == 6 { fields.remove(at: 3) }
            return fields.joined(separator: ", ")
        }
    }

    /// A take of about `seconds` with `arguments`: a copy of it before Use Video, the delivered file,
    /// and the outcome event.
    static func take(_ folder: URL, _ arguments: [String], seconds: Double, environment: [String: String] = [:]) throws
        -> (before: String, after: String, outcome: KioskEvent, stderr: String) {
        let output = folder.appendingPathComponent("take.mov").path, before = folder.appendingPathComponent("before.mov").path
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--windowed", "800x480", "--countdown", "0",
                                     "--output", output] + arguments, environment: environment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines) \(r.stderr)")
        try #require(r.waitRecorded(seconds), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.rawLines)")
        try FileManager.default.copyItem(atPath: output, toPath: before)
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil, "\(r.rawLines) \(r.stderr)")
        #expect(r.exitStatus() == 0)
        let outcome = try #require(r.events.first { $0.name == "videoRecorderDidFinishRecordingVideoWithOutputPath" })
        return (before, output, outcome, r.stderr)
    }

    @Test("--loudness -16 on speech-like noise at -40, -25 and -10 LUFS: each delivered take at -16 ± 1 LUFS and at most -1 dBTP by ffmpeg's ebur128, every video packet byte-identical (MD5), the outcome saying what was measured and applied",
          arguments: [-40.0, -25.0, -10.0])
    func leveled(_ lufs: Double) throws {
        let folder = try testFolder("loudness\(Int(lufs))")
        let noise = try Self.speechLikeNoise(in: folder, lufs: lufs)
        let (before, after, outcome, stderr) = try Self.take(folder, ["--microphone", "kiosk_fake_mic", "--loudness", "-16"], seconds: 5,
                                                             environment: try Self.microphone(playing: noise, in: folder))
        let recorded = try Self.measure(["-i", before]), delivered = try Self.measure(["-i", after])
        print("loudness \(lufs): recorded \(recorded.integrated) LUFS (\(recorded.truePeak) dBTP), delivered \(delivered.integrated) LUFS (\(delivered.truePeak) dBTP); \(outcome)")
        // What was fed is what the take has (the microphone clips peaks past full scale).
        #expect(abs(recorded.integrated - lufs) <= 1.5, "recorded at \(recorded.integrated) LUFS")
        #expect(abs(delivered.integrated - -16) <= 1, "delivered at \(delivered.integrated) LUFS")
        #expect(delivered.truePeak <= -1, "true peak \(delivered.truePeak) dBTP")
        let (sumsBefore, sumsAfter) = (try Self.videoPacketSums(before), try Self.videoPacketSums(after))
        // A take of pictures (150 at the camera's rate; a loaded machine steps the take down to
        // every 2nd), every one the same before and after.
        let differ = zip(sumsBefore, sumsAfter).filter { $0 != $1 }.prefix(3).map { "\($0) → \($1)" }
        #expect(sumsBefore.count >= 60 && sumsBefore == sumsAfter,
                "\(sumsBefore.count) video packets before, \(sumsAfter.count) after; the first that differ: \(differ)")
        guard case let .leveled(inner, loudness) = outcome.unasked else {
            Issue.record("no loudness in the outcome: \(outcome)")
            return
        }
        #expect(inner == .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: after))
        // Our meter (libebur128) and ffmpeg's agree on what was recorded.
        let (measured, peak) = (try #require(loudness.measured, "\(loudness)"), try #require(loudness.truePeak, "\(loudness)"))
        #expect(abs(measured - recorded.integrated) <= 0.5 && abs(peak - recorded.truePeak) <= 0.5, "\(loudness)")
        #expect(abs(measured + loudness.gain - -16) <= 1 || loudness.limited, "\(loudness)")
        #expect(loudness.result == (loudness.limited ? .limited : .leveled), "\(loudness)")
        #expect(stderr.contains("loudness: \(after) measured"), "\(stderr)")
        // Made while the take was reviewed, renamed at the hand-over; nothing left beside it.
        #expect(stderr.contains("made during the review") && stderr.contains("handed over in"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".take.leveled.mov").path))
    }

    /// Sounds whose peaks the gain lifts into the limiter, raw S16LE stereo at 48 kHz: `clap`, the
    /// speech-like noise at −25 LUFS with a full-scale clap each second (5 ms of a 1.7 kHz square
    /// wave, clipped as a converter clips it); `dc`, a 440 Hz tone at about −30 LUFS riding on a DC
    /// offset of 0.3 (a cheap microphone's), which R128's weighting does not hear.
    static func peakySound(_ kind: String, in folder: URL) throws -> String {
        let raw = folder.appendingPathComponent("\(kind).raw").path
        let made: ProgramRun
        if kind == "clap" {
            let noise = try speechLikeNoise(in: folder, lufs: -25)
            made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "s16le", "-ac", "2", "-ar", "48000", "-i", noise, "-f", "lavfi", "-i",
                                   "aevalsrc=exprs='if(lt(mod(t,1),0.005),sgn(sin(2*PI*1700*t)),0)':s=48000:d=8",
                                   "-filter_complex", "[0][1]amerge=inputs=2,pan=stereo|c0=c0+c2|c1=c1+c2", "-f", "s16le", raw])
        } else {
            made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc=exprs='0.3+0.033*sin(2*PI*440*t)':s=48000:d=8",
                                   "-ac", "2", "-f", "s16le", raw])
        }
        try #require(made.status == 0, "\(made.stderr)")
        return raw
    }

    @Test("--loudness -16 on takes whose peaks the gain lifts into the limiter (speech-like noise with a full-scale clap each second; a tone on a DC offset): each delivered at -16 ± 1 LUFS and at most -1 dBTP by ffmpeg's ebur128, the outcome saying the limiter held them, nothing left beside the take",
          arguments: ["clap", "dc"])
    func limited(_ kind: String) throws {
        let folder = try testFolder("loudness-\(kind)")
        let sound = try Self.peakySound(kind, in: folder)
        let (before, after, outcome, stderr) = try Self.take(folder, ["--microphone", "kiosk_fake_mic", "--loudness", "-16"], seconds: 4,
                                                             environment: try Self.microphone(playing: sound, in: folder))
        let recorded = try Self.measure(["-i", before]), delivered = try Self.measure(["-i", after])
        print("loudness \(kind): recorded \(recorded.integrated) LUFS (\(recorded.truePeak) dBTP), delivered \(delivered.integrated) LUFS (\(delivered.truePeak) dBTP); \(outcome)")
        #expect(!stderr.contains("loudnessFailed") && !stderr.contains("File exists"), "\(stderr)")
        #expect(abs(delivered.integrated - -16) <= 1, "delivered at \(delivered.integrated) LUFS")
        #expect(delivered.truePeak <= -1, "true peak \(delivered.truePeak) dBTP")
        guard case let .leveled(_, loudness) = outcome.unasked else {
            Issue.record("no loudness in the outcome: \(outcome)")
            return
        }
        #expect(loudness.limited && loudness.result == .limited, "\(loudness)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".take.leveled.mov").path))
    }

    @Test("--loudness on takes it leaves as recorded: silence, a take already at the target and a take with no sound track each carry loudness with the result naming the case (silence, atTarget, noSound), the file untouched, and the log saying which",
          arguments: ["silence", "atTarget", "noSound"])
    func leftAsRecorded(_ kind: String) throws {
        let folder = try testFolder("loudness-left-\(kind)")
        let environment: [String: String]
        switch kind {
        case "silence":
            let raw = folder.appendingPathComponent("silence.raw").path
            try Data(count: 48000 * 4 * 2).write(to: URL(fileURLWithPath: raw))
            environment = try Self.microphone(playing: raw, in: folder)
        case "atTarget":
            // A steady 1 kHz tone (any stretch of it measures the same), measured as a first take
            // has it: the second booth's target is that figure, so no gain of 0.1 dB or more is asked.
            let raw = folder.appendingPathComponent("tone.raw").path
            let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc=exprs='0.05*sin(2*PI*1000*t)':s=48000:d=8",
                                       "-ac", "2", "-f", "s16le", raw])
            try #require(made.status == 0, "\(made.stderr)")
            environment = try Self.microphone(playing: raw, in: folder)
        default:
            environment = [:]
        }
        let microphone = ["--microphone", kind == "noSound" ? "none" : "kiosk_fake_mic"]
        var arguments = microphone + ["--loudness", "-16"]
        if kind == "atTarget" {
            // A take first, measured by our own meter through a first booth (the target its figure).
            let first = try Self.take(folder, arguments, seconds: 3, environment: environment)
            guard case let .leveled(_, loudness) = first.outcome.unasked, let measured = loudness.measured else {
                Issue.record("no measured loudness in the first outcome: \(first.outcome)")
                return
            }
            try FileManager.default.removeItem(atPath: first.after)
            try FileManager.default.removeItem(atPath: first.before)
            arguments = microphone + ["--loudness", String(format: "%.2f", measured)]
        }
        let (before, after, outcome, stderr) = try Self.take(folder, arguments, seconds: 3, environment: environment)
        guard case let .leveled(_, loudness) = outcome.unasked else {
            Issue.record("no loudness in the outcome: \(outcome)")
            return
        }
        print("loudness \(kind): \(loudness)")
        #expect(loudness.result.rawValue == kind && loudness.gain == 0 && !loudness.limited && loudness.reached == nil, "\(loudness)")
        #expect((loudness.measured != nil) == (kind == "atTarget"), "\(loudness)")
        #expect(FileManager.default.contents(atPath: before) == FileManager.default.contents(atPath: after), "the take changed")
        #expect(stderr.contains("loudness: \(after) left as it is: ") && stderr.contains("(\(kind))"), "\(stderr)")
        #expect(EventEncoder().line(for: outcome).contains(#""result":"\#(kind)""#), "\(outcome)")
    }

    @Test("the film (reel) of a 5.1 take: at -16 ± 1 LUFS and at most -1 dBTP by ffmpeg's ebur128, measured as the film has it (after the downmix to stereo)")
    func surroundInTheFilm() throws {
        let folder = try testFolder("loudness-surround")
        let takes = folder.appendingPathComponent("takes").path, film = folder.appendingPathComponent("film.mp4").path
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        // Speech-like noise in all six channels (the same in each), AAC 5.1, beside a gray picture.
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=352x288:r=30:d=3",
                                   "-f", "lavfi", "-i", "anoisesrc=color=pink:seed=7:amplitude=0.1:duration=3,tremolo=f=4:d=0.8",
                                   "-af", "pan=5.1(side)|FL=c0|FR=c0|FC=c0|LFE=c0|SL=c0|SR=c0", "-c:v", "mpeg4", "-c:a", "aac", "-shortest",
                                   takes + "/a.mov"])
        try #require(made.status == 0, "\(made.stderr)")
        let r = try RecorderProcess(["reel", takes, "--output", film])
        #expect(r.exitStatus(timeout: 60) == 0, "\(r.stderr)")
        let delivered = try Self.measure(["-i", film])
        print("surround: the film of a 5.1 take at \(delivered.integrated) LUFS (\(delivered.truePeak) dBTP)")
        #expect(abs(delivered.integrated - -16) <= 1, "the film at \(delivered.integrated) LUFS")
        #expect(delivered.truePeak <= -1, "true peak \(delivered.truePeak) dBTP")
    }

    @Test("--loudness with a Retake and a trim: the Retake's discard takes the leveled copy with the take; a trimmed take is leveled after its cut, the outcome both trimmed and leveled")
    func retakeAndTrim() throws {
        let folder = try testFolder("loudness-trim")
        let noise = try Self.speechLikeNoise(in: folder, lufs: -30)
        let output = folder.appendingPathComponent("take.mov").path, copy = folder.appendingPathComponent(".take.leveled.mov").path
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--windowed", "800x480", "--countdown", "0", "--output", output,
                                     "--microphone", "kiosk_fake_mic", "--loudness", "-16", "--trim"], environment: try Self.microphone(playing: noise, in: folder))
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        for take in 1...2 {
            r.command("start")
            try #require(r.wait(for: "recordingStarted", count: take) != nil, "\(r.rawLines) \(r.stderr)")
            try #require(r.waitRecorded(4), "\(r.rawLines)")
            r.command("stop")
            try #require(r.wait(for: "recordingFinished", count: take) != nil, "\(r.rawLines)")
            // The copy is made on the file worker while the guest looks at the take.
            #expect(eventually(10) { FileManager.default.fileExists(atPath: copy) }, "\(r.stderr)")
            if take == 1 {
                r.command("retake")
                #expect(eventually(10) { !FileManager.default.fileExists(atPath: copy) && !FileManager.default.fileExists(atPath: output) },
                        "the Retake left \((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])")
            }
        }
        r.send(#"{"command":"trim","start":1.0,"end":3.0}"#)
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil, "\(r.rawLines) \(r.stderr)")
        #expect(r.exitStatus() == 0)
        let outcome = try #require(r.events.first { $0.name == "videoRecorderDidFinishRecordingVideoWithOutputPath" })
        guard case let .leveled(.videoRecorderDidFinishRecordingTrimmedVideo(path, trimmed, duration), loudness) = outcome.unasked else {
            Issue.record("not trimmed and leveled: \(outcome)")
            return
        }
        #expect(path == output && abs(trimmed.start - 1) < 0.05 && abs(duration - 2) < 0.1, "\(outcome)")
        let delivered = try Self.measure(["-i", output])
        #expect(abs(delivered.integrated - -16) <= 1 && delivered.truePeak <= -1, "delivered \(delivered), \(loudness)")
        #expect(!FileManager.default.fileExists(atPath: copy), "the copy made before the cut is gone")
    }

    @Test("--loudness leaves the sound where it was against the picture: the test tone's beeps within 1 ms of where they were before the hand-over")
    func beepsStay() throws {
        let folder = try testFolder("loudness-sync")
        let (before, after, outcome, _) = try Self.take(folder, ["--microphone", "test", "--loudness", "-23"], seconds: 4)
        guard case .leveled = outcome.unasked else {
            Issue.record("the take was not leveled: \(outcome)")
            return
        }
        let take = { (path: String) in AVSyncEndToEndTests.Take(path: path, width: 352, height: 288, startWritten: 0, started: 0) }
        let (was, sound) = try AVSyncEndToEndTests.beepOnsets(of: take(before))
        let (now, _) = try AVSyncEndToEndTests.beepOnsets(of: take(after))
        #expect(was.count >= 3 && now.count == was.count, "beeps before \(was), after \(now) (sound \(sound))")
        for (a, b) in zip(was, now) { #expect(abs(a - b) <= 0.001, "a beep at \(a) s is now at \(b) s") }
        // (Its level is `leveled`'s to show: a beep a second measures up to a LU apart between
        // meters whose 400 ms blocks fall differently on it: libebur128 read this take 0.9 LU louder
        // than ffmpeg's ebur128. Seven dB down it went, by either.)
        let (recorded, delivered) = (try Self.measure(["-i", before]), try Self.measure(["-i", after]))
        #expect(abs(recorded.integrated - delivered.integrated - 7) <= 1.5, "recorded \(recorded.integrated), delivered \(delivered.integrated) LUFS")
    }

    /// The level (dB) of `hertz` in interleaved stereo S16 `samples` (the left channel), by Goertzel.
    static func level(of hertz: Double, in samples: [Int16]) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * hertz / 48000)
        var (s1, s2) = (0.0, 0.0)
        let left = stride(from: 0, to: samples.count, by: 2)
        for i in left {
            let s = Double(samples[i]) + coefficient * s1 - s2
            (s2, s1) = (s1, s)
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 10 * log10(max(power, 1e-9))
    }

    /// Two seconds of `path`'s sound from 1.5 s on, as stereo S16 at 48 kHz.
    static func middle(_ input: [String], in folder: URL) throws -> [Int16] {
        let raw = folder.appendingPathComponent("middle-\(UUID().uuidString).raw").path
        let run = try runProgram(["ffmpeg", "-v", "error", "-y"] + input + ["-ss", "1.5", "-t", "2", "-map", "0:a:0", "-ac", "2", "-ar", "48000",
                                                                           "-f", "s16le", raw])
        try #require(run.status == 0, "\(run.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test("--high-pass 80: a 40 Hz tone fed beside a 1 kHz tone comes out at least 20 dB lower against the 1 kHz tone than it went in; without it, as it went in")
    func highPass() throws {
        let folder = try testFolder("high-pass")
        let raw = folder.appendingPathComponent("tones.raw").path
        let make = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                                   "aevalsrc=0.25*sin(2*PI*40*t)+0.25*sin(2*PI*1000*t):s=48000:d=8", "-ac", "2", "-f", "s16le", raw])
        try #require(make.status == 0, "\(make.stderr)")
        let fed = try Self.middle(["-f", "s16le", "-ac", "2", "-ar", "48000", "-i", raw], in: folder)
        let fedDifference = Self.level(of: 40, in: fed) - Self.level(of: 1000, in: fed)
        var differences: [Double] = []
        for arguments in [["--high-pass", "80"], []] {
            let take = try testFolder("high-pass-take\(arguments.count)")
            let (_, after, _, _) = try Self.take(take, ["--microphone", "kiosk_fake_mic"] + arguments, seconds: 4,
                                                 environment: try Self.microphone(playing: raw, in: take))
            let got = try Self.middle(["-i", after], in: take)
            differences.append(Self.level(of: 40, in: got) - Self.level(of: 1000, in: got))
        }
        print("high-pass: 40 Hz against 1 kHz fed \(fedDifference) dB; recorded with --high-pass 80 \(differences[0]) dB, without \(differences[1]) dB")
        #expect(abs(fedDifference) <= 1, "the tones are fed alike: \(fedDifference) dB")
        #expect(differences[0] - fedDifference <= -20, "with --high-pass 80 the 40 Hz tone is \(differences[0] - fedDifference) dB against what was fed")
        #expect(abs(differences[1] - fedDifference) <= 1, "without it \(differences[1] - fedDifference) dB")
    }
}

@Suite("libavfilter on demand, through the binary")
struct FilterOnDemandEndToEndTests {
    /// The libraries of FFmpeg the running recorder `pid` has mapped (/proc/PID/maps), by name.
    static func mappedFFmpeg(_ pid: Int32) -> Set<String> {
        // Read by cat: Foundation's String(contentsOfFile:) gave an empty string for a recorder's maps here.
        let maps = (try? runProgram(["cat", "/proc/\(pid)/maps"]).stdout) ?? ""
        return Set(maps.split(separator: "\n").compactMap { line in
            line.split(separator: "/").last.flatMap { $0.hasPrefix("libav") ? String($0.prefix { $0 != "." }) : nil }
        })
    }

    /// `seconds` of a 1 kHz tone for the fake microphone: raw S16LE stereo at 48 kHz in `folder`.
    static func tone(seconds: Int, in folder: URL) throws -> String {
        let raw = folder.appendingPathComponent("tone.raw").path
        let make = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=1000:d=\(seconds):r=48000", "-ac", "2", "-f", "s16le", raw])
        try #require(make.status == 0, "\(make.stderr)")
        return raw
    }

    @Test("a booth that filters nothing records a take without loading libavfilter; with --high-pass it loads it for the take, whose sound it filters")
    func loadedForAFilterOnly() throws {
        let folder = try testFolder("avfilter-on-demand")
        let raw = try Self.tone(seconds: 2, in: folder)
        for highPass in [false, true] {
            let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--windowed", "800x480", "--countdown", "0",
                                         "--microphone", "kiosk_fake_mic", "--output", folder.appendingPathComponent("take-\(highPass).mov").path]
                                        + (highPass ? ["--high-pass", "80"] : []),
                                        environment: try LoudnessEndToEndTests.microphone(playing: raw, in: folder))
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            r.command("start")
            try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines) \(r.stderr)")
            try #require(r.waitRecorded(1), "\(r.rawLines)")
            let mapped = Self.mappedFFmpeg(r.process.processIdentifier)
            // The recorder itself (its encoder's library mapped), not a process around it.
            #expect(mapped.contains("libavcodec"), "\(mapped)")
            #expect(mapped.contains("libavfilter") == highPass, "--high-pass \(highPass): \(mapped)")
            r.command("stop")
            try #require(r.wait(for: "recordingFinished") != nil, "\(r.rawLines)")
            r.command("quit")
            #expect(r.exitStatus() == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("libavfilter"), "\(r.stderr)")
        }
    }

    @Test("a machine whose libavfilter cannot be opened: a --high-pass booth still records the take, its sound unfiltered, and says why on stderr")
    func withoutLibavfilter() throws {
        let folder = try testFolder("avfilter-missing")
        let raw = try Self.tone(seconds: 4, in: folder)
        // libavfilter's file as ld.so finds it (the soname the recorder opens).
        let cache = try runProgram(["ldconfig", "-p"]).stdout
        let library = try #require(cache.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("libavfilter.so.") }
                                    .flatMap { $0.components(separatedBy: " => ").last }, "\(cache.prefix(2000))")
        // The recorder in a mount namespace of its own where that file is empty (/dev/null bound over
        // it): unshare and sh each exec the next, so the process is the recorder, started as always.
        let take = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(["--mount", "sh", "-c", #"mount --bind /dev/null "$0" && exec "$@""#, library, recorderPath,
                                     "--camera", "test", "--size", "352x288", "--windowed", "800x480", "--countdown", "0",
                                     "--microphone", "kiosk_fake_mic", "--high-pass", "80", "--output", take],
                                    environment: try LoudnessEndToEndTests.microphone(playing: raw, in: folder), executable: "/usr/bin/unshare")
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines) \(r.stderr)")
        try #require(r.waitRecorded(2), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.rawLines) \(r.stderr)")
        let finished = try #require(r.lastResult)
        #expect(finished.outputPath == take && finished.duration >= 2, "\(finished)")
        #expect(r.said("--high-pass 80 Hz: dlopen(libavfilter): "), "\(r.stderr)")
        #expect(r.said("this take's sound is recorded unfiltered"), "\(r.stderr)")
        #expect(!FilterOnDemandEndToEndTests.mappedFFmpeg(r.process.processIdentifier).contains("libavfilter"))
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        // The take has the microphone's tone: its sound recorded, not lost with the filter.
        let level = try LoudnessEndToEndTests.measure(["-i", take])
        #expect(level.integrated > -30, "\(level)")
    }
}
