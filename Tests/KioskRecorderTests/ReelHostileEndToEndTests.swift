// `kiosk-recorder reel` under hostile input, through the binary: outputs it must not write, cards
// whose words look like drawtext's expansions, a FIFO, a timestamp gap of days, a film that cannot be
// finished (a folder at --output, a full disk), signals while a card is drawn, and a film made inside
// its own folder of takes. Takes are made by ffmpeg's lavfi sources, small and short.
import Foundation
import KioskCore
import KioskTestSupport
import Testing

@Suite("The hosts' film under hostile input: kiosk-recorder reel, through the binary", .serialized)
struct ReelHostileEndToEndTests {
    /// A take of `frames` pictures of ffmpeg's testsrc2 (160x120, 30 a second) at `path`, with its
    /// `title` tag, soundless unless `sound`; `filter` changes its pictures (and their times).
    static func take(_ path: String, frames: Int = 10, title: String? = nil, sound: Bool = false, filter: String? = nil) throws {
        let size = filter == nil ? "160x120" : "320x240"
        var command = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30"]
        if sound { command += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"] }
        command += ["-frames:v", "\(frames)"] + (filter.map { ["-vf", $0, "-fps_mode", "passthrough", "-video_track_timescale", "30"] } ?? [])
        command += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"] + (sound ? ["-c:a", "aac", "-shortest"] : [])
        command += (title.map { ["-metadata", "title=\($0)"] } ?? []) + [path]
        let run = try runProgram(command)
        try #require(run.status == 0, "\(run.stderr)")
    }

    /// A folder `name` in `folder` with one short take, `a.mp4`: the folder's path.
    static func takes(_ folder: URL, _ name: String = "takes") throws -> String {
        let takes = folder.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        try take(takes + "/a.mp4")
        return takes
    }

    /// `kiosk-recorder ARGUMENTS` under /usr/bin/time, which adds its peak resident size to stderr
    /// (`peak N KiB`): read with `peak` and left out by `said`.
    static func measured(_ arguments: [String], environment: [String: String] = [:]) throws -> RecorderProcess {
        try RecorderProcess(["-f", "peak %M KiB", recorderPath] + arguments, environment: environment, executable: "/usr/bin/time")
    }

    /// The peak resident size (KiB) /usr/bin/time said for `r`; Int.max when it said none.
    static func peak(_ r: RecorderProcess) -> Int {
        Int(r.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }?.split(separator: " ")[1] ?? "") ?? .max
    }

    /// What `r` said on stderr, /usr/bin/time's lines (its peak, a non-zero exit) left out.
    static func said(_ r: RecorderProcess) -> [Substring] {
        r.stderr.split(separator: "\n").filter { !$0.hasPrefix("peak ") && !$0.hasPrefix("Command exited with non-zero status") }
    }

    /// The most any one film may hold resident, whatever its input.
    static let memoryLimit = 200 * 1024

    /// What is in `folder`, sorted.
    static func names(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    @Test("--output refused with exit 2 and one line naming it: one of the takes (even with --force), an existing file without --force, a folder that does not exist; --force replaces a file that is no take")
    func refusedOutputs() throws {
        let folder = try testFolder("reel-outputs")
        let takes = try Self.takes(folder)
        let take = takes + "/a.mp4", before = try Data(contentsOf: URL(fileURLWithPath: take))
        let other = folder.appendingPathComponent("other.mp4").path
        try Data("not a film".utf8).write(to: URL(fileURLWithPath: other))
        for (arguments, said) in [(["--output", take], "is the take"), (["--output", take, "--force"], "is the take"),
                                  (["--output", other], "give --force"), (["--output", "/nowhere/at/all/film.mp4"], "does not exist")] {
            let r = try RecorderProcess(["reel", takes, "--size", "320x240"] + arguments)
            #expect(r.exitStatus(timeout: 30) == 2, "\(arguments): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("--output") && lines[0].contains(said), "\(arguments): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: take)) == before, "the take was written")
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "not a film")
        let forced = try RecorderProcess(["reel", takes, "--size", "320x240", "--output", other, "--force"])
        #expect(forced.exitStatus(timeout: 60) == 0, "\(forced.stderr)")
        #expect(try ffprobe(other, "stream=codec_name", stream: "v:0") == "h264")
        #expect(Self.names(folder.path) == ["other.mp4", "takes"] && Self.names(takes) == ["a.mp4"])
    }

    /// The words drawn on a card of a 640x360 film (30 px, one line, at y 157), as ffmpeg's own
    /// drawtext draws them read from a file with nothing expanded (in Noto Sans CJK, or `fontFile`):
    /// rows 140..<220, gray.
    static func reference(_ text: String, fontFile: String? = nil, in folder: URL) throws -> [UInt8] {
        let file = folder.appendingPathComponent("words-\(UUID().uuidString).txt").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let raw = file + ".gray"
        let run = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=black:size=640x360:rate=30", "-frames:v", "1", "-vf",
                                  "format=yuv420p,drawtext=\(fontFile.map { "fontfile=\($0)" } ?? "font='Noto Sans CJK JP'"):textfile=\(file)"
                                  + ":expansion=none:fontcolor=white:fontsize=30"
                                  + ":x=(w-text_w)/2:y=157,crop=640:80:0:140", "-pix_fmt", "gray", "-f", "rawvideo", raw])
        try #require(run.status == 0, "\(run.stderr)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// The words' band (640x80, gray) of each card's middle picture in a 640x360 film of `takes`
    /// 10-picture takes: the title's 45th, then each take's card (2 s after the take before).
    static func cards(of film: String, takes: Int, in folder: URL) throws -> (bytes: [UInt8], band: Int) {
        let frames = [45] + (0..<takes).map { 90 + $0 * 70 + 30 }
        let select = frames.map { "eq(n\\,\($0))" }.joined(separator: "+")
        let raw = folder.appendingPathComponent("cards-\(UUID().uuidString).gray").path
        let run = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", film, "-vf", "select='\(select)',crop=640:80:0:140", "-fps_mode", "passthrough",
                                  "-pix_fmt", "gray", "-f", "rawvideo", raw])
        try #require(run.status == 0, "\(run.stderr)")
        let cards = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let band = 640 * 80
        try #require(cards.count == band * frames.count, "\(cards.count) bytes")
        return (cards, band)
    }

    @Test("cards drawn literally: a title of %{eif:while(1,1):d} and questions with %, &, :, ', %{localtime} and backslashes, each card as ffmpeg draws the words from a file; no file is made in TMPDIR (it is a file here); under 200 MB resident")
    func literalCards() throws {
        let folder = try testFolder("reel-cards")
        let takes = folder.appendingPathComponent("takes").path
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        let questions = ["What's 100% true about love?", "Anna & Tom: 100% married", "%{localtime}", #"C:\new\path"#]
        for (k, question) in questions.enumerated() { try Self.take(takes + "/\(k).mp4", title: question) }
        // Their times set apart, so the folder's order is theirs.
        for k in questions.indices {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(k))], ofItemAtPath: takes + "/\(k).mp4")
        }
        let title = "%{eif:while(1,1):d}"
        let notAFolder = folder.appendingPathComponent("tmp-is-a-file").path
        try Data().write(to: URL(fileURLWithPath: notAFolder))
        let output = folder.appendingPathComponent("film.mp4").path
        let r = try Self.measured(["reel", takes, "--output", output, "--size", "640x360", "--title", title], environment: ["TMPDIR": notAFolder])
        #expect(r.exitStatus(timeout: 60) == 0, "\(r.stderr)")
        #expect(Self.peak(r) < Self.memoryLimit, "peak \(Self.peak(r)) KiB")
        print("reel with a title of \(title): peak \(Self.peak(r) / 1024) MiB")
        let (cards, band) = try Self.cards(of: output, takes: questions.count, in: folder)
        for (k, words) in ([title] + questions).enumerated() {
            let expected = try Self.reference(words, in: folder)
            let card = cards[(k * band)..<((k + 1) * band)]
            let difference = Double(zip(card, expected).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(band)
            let lit = card.filter { $0 > 128 }.count
            #expect(lit > 300 && difference < 3, "'\(words)': \(lit) bright pixels, \(difference) from ffmpeg's own drawing")
            print("reel card '\(words)': \(lit) bright pixels, mean difference \(String(format: "%.2f", difference)) from ffmpeg's drawtext")
        }
    }

    @Test("the race: a nobody process that made kiosk-reel-<pid> first in TMPDIR and keeps renaming symlinks to a root-only file over its line-N.txt while the film is made gets nothing drawn but the given words; its folder is left as it made it")
    func plantedScratch() throws {
        let folder = try testFolder("reel-planted")
        let takes = folder.appendingPathComponent("takes").path
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        let questions = ["Anna & Tom's question", "A second question"]
        for (k, question) in questions.enumerated() {
            try Self.take(takes + "/\(k).mp4", title: question)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(k))], ofItemAtPath: takes + "/\(k).mp4")
        }
        let secret = folder.appendingPathComponent("secret.txt").path
        try "ROOT SECRET 42".write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0o600)
        chmod(folder.path, 0o755)
        // One film, or (KIOSK_RACE_SECONDS=30, CONTRIBUTING's longer run) films one after another
        // for that long, a new planter at each.
        let seconds = Double(ProcessInfo.processInfo.environment["KIOSK_RACE_SECONDS"] ?? "") ?? 0
        let began = ProcessInfo.processInfo.systemUptime
        var round = 0
        repeat {
            round += 1
            try Self.plantedRound(round, takes: takes, questions: questions, secret: secret, in: folder)
        } while ProcessInfo.processInfo.systemUptime - began < seconds
        print("the race: \(round) film\(round == 1 ? "" : "s") in \(Int(ProcessInfo.processInfo.systemUptime - began)) s, each with a planter beside it")
    }

    /// One film made while a planter renames symlinks to `secret` over the card files reel would
    /// have used: its cards are the given words, and the planter's folder is left as it made it.
    static func plantedRound(_ round: Int, takes: String, questions: [String], secret: String, in folder: URL) throws {
        let tmp = folder.appendingPathComponent("tmp-\(round)").path
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        chmod(tmp, 0o1777)
        let pidFile = folder.appendingPathComponent("planter-\(round).pid").path
        // The shell's pid is reel's (exec): the planter, as nobody, makes the folder reel would have
        // used and renames symlinks over its card files until it is killed.
        let script = #"""
            d="$TMPDIR/kiosk-reel-$$"
            setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c 'mkdir -m 777 "$1" || exit 1
              while :; do for k in 0 1 2 3; do ln -sf "$2" "$1/.p$k"; mv -f "$1/.p$k" "$1/line-$k.txt"; done; done' sh "$d" "$SECRET" &
            echo $! > "$PIDFILE"
            exec "$0" reel "$@"
            """#
        let output = folder.appendingPathComponent("film-\(round).mp4").path
        let title = "Hello from the booth"
        let r = try RecorderProcess(["-c", script, recorderPath, takes, "--output", output, "--size", "640x360", "--title", title],
                                    environment: ["TMPDIR": tmp, "SECRET": secret, "PIDFILE": pidFile], executable: "/bin/sh")
        let status = r.exitStatus(timeout: 60)
        if let pid = try? String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), let n = Int32(pid) {
            kill(n, SIGKILL)
        }
        #expect(status == 0, "round \(round): \(r.stderr)")
        let planted = try FileManager.default.contentsOfDirectory(atPath: tmp).filter { $0.hasPrefix("kiosk-reel-") }
        #expect(planted.count == 1, "round \(round), the planter's folder: \(planted)")
        let (cards, band) = try Self.cards(of: output, takes: questions.count, in: folder)
        let leaked = try Self.reference("ROOT SECRET 42", in: folder)
        for (k, words) in ([title] + questions).enumerated() {
            let card = cards[(k * band)..<((k + 1) * band)]
            let difference = { (expected: [UInt8]) in Double(zip(card, expected).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(band) }
            let (given, secretOne) = (difference(try Self.reference(words, in: folder)), difference(leaked))
            #expect(given < 3 && secretOne > given, "round \(round), '\(words)': \(given) from its words, \(secretOne) from the secret's")
        }
    }

    @Test("it ends by itself: a FIFO named .mov is left out and named; a gap of 200,000 s in a soundless take is closed (the film a few seconds); a folder at --output with --force and a full disk each end with exit 1 and one line, nothing left; each under 200 MB resident", needsFakeCamera)
    func endsByItself() throws {
        let folder = try testFolder("reel-ends")
        let takes = try Self.takes(folder)
        // Its name holds a newline: said escaped, as JSON writes it, never as a line of its own.
        let fifo = takes + "/b\nkiosk-recorder: all is well.mov"
        try #require(mkfifo(fifo, 0o644) == 0)
        let gap = takes + "/c.mov"
        try Self.take(gap, frames: 30, filter: "setpts='PTS+gte(N,15)*200000/TB'")
        let output = folder.appendingPathComponent("film.mp4").path
        let r = try Self.measured(["reel", takes, "--output", output, "--size", "320x240", "--json"])
        #expect(r.exitStatus(timeout: 60) == 0, "\(r.stderr)")
        #expect(r.said(#"left out \#(takes)/b\nkiosk-recorder: all is well.mov: it is no regular file"#), "\(r.stderr)")
        #expect(!r.stderr.split(separator: "\n").contains { $0.hasPrefix("kiosk-recorder: all is well") }, "\(r.stderr)")
        guard case let .reelFinished(_, duration, count)? = r.events.last else { Issue.record("no reelFinished: \(r.rawLines) \(r.stderr)"); return }
        // The title (3 s), a's card and 10 pictures, c's card and its 30 pictures with the gap closed.
        #expect(count == 2 && duration < 3 + 2 + 0.4 + 2 + 1.2, "\(duration) s")
        let peak = Self.peak(r)
        #expect(peak < Self.memoryLimit, "peak \(peak) KiB")
        print("reel with a 200,000 s gap: \(duration) s film, peak \(peak / 1024) MiB")
        try FileManager.default.removeItem(atPath: fifo)
        try FileManager.default.removeItem(atPath: gap)

        // A folder at --output: replaced only with --force, and a rename cannot replace a folder.
        let place = folder.appendingPathComponent("place.mp4").path
        try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
        let onFolder = try Self.measured(["reel", takes, "--output", place, "--size", "320x240", "--force"])
        #expect(onFolder.exitStatus(timeout: 30) == 1, "\(onFolder.stderr)")
        #expect(Self.said(onFolder).count == 1 && onFolder.stderr.contains(place), "\(onFolder.stderr)")
        #expect(Self.peak(onFolder) < Self.memoryLimit, "peak \(Self.peak(onFolder)) KiB")
        #expect(Self.names(folder.path) == ["film.mp4", "place.mp4", "takes"] && Self.names(place).isEmpty)

        // A full disk: a 1 MiB tmpfs, and a take of noise that does not fit in it.
        let full = folder.appendingPathComponent("full").path
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", full], stdout: .inherit, stderr: .inherit)
        try #require(mount.status == 0, "mounting a tmpfs needs root")
        defer { _ = try? runProgram(["umount", full], stdout: .inherit, stderr: .inherit) }
        try Self.take(takes + "/d.mp4", frames: 60, filter: "noise=alls=100:allf=t")
        let onFull = try Self.measured(["reel", takes, "--output", full + "/film.mp4", "--size", "640x360"])
        #expect(onFull.exitStatus(timeout: 30) == 1, "\(onFull.stderr)")
        #expect(Self.said(onFull).count == 1 && onFull.stderr.contains("the disk is full"), "\(onFull.stderr)")
        #expect(Self.peak(onFull) < Self.memoryLimit, "peak \(Self.peak(onFull)) KiB")
        print("reel onto a folder: peak \(Self.peak(onFolder) / 1024) MiB; onto a full disk: peak \(Self.peak(onFull) / 1024) MiB")
        #expect(Self.names(full).isEmpty, "left: \(Self.names(full))")
    }

    @Test("SIGINT or SIGTERM as the title card (%{eif:while(1,1):d}) is drawn: exit 130 or 143 within 5 s, nothing left beside --output")
    func signals() throws {
        let folder = try testFolder("reel-signals")
        let takes = try Self.takes(folder)
        try Self.take(takes + "/b.mp4", frames: 90)
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let out = folder.appendingPathComponent("out-\(signal)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let r = try RecorderProcess(["reel", takes, "--output", out.appendingPathComponent("film.mp4").path, "--json", "--title", "%{eif:while(1,1):d}"])
            try #require(r.wait(for: "reelProgress", timeout: 30) != nil, "\(r.rawLines) \(r.stderr)")
            let sent = ProcessInfo.processInfo.systemUptime
            r.kill(signal)
            #expect(r.exitStatus(timeout: 5) == status, "\(r.stderr)")
            print("reel: exit \(Int((ProcessInfo.processInfo.systemUptime - sent) * 1000)) ms after signal \(signal)")
            #expect(Self.names(out.path).isEmpty, "left: \(Self.names(out.path))")
        }
    }

    @Test("SIGTERM while the film's writer is held in a sync of 20 s (the test's syscall shim): exit 143 within 5 s, nothing left beside --output")
    func signalWhileStuck() throws {
        let folder = try testFolder("reel-stuck")
        let takes = try Self.takes(folder)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let slow = folder.appendingPathComponent("slow").path
        try Data().write(to: URL(fileURLWithPath: slow))
        let r = try RecorderProcess(["reel", takes, "--output", out.appendingPathComponent("film.mp4").path, "--size", "320x240", "--json"],
                                    environment: ["LD_PRELOAD": failingSyscallsShim, "KIOSK_SLOW_CALLS": "fsync,fdatasync", "KIOSK_SLOW_TRIGGER": slow,
                                                  "KIOSK_SLOW_MS": "20000"])
        // The film started: its writer syncs its file from the first pictures on, each sync held 20 s,
        // and the film waits for the writer; nothing between packets is reached to see the signal.
        try #require(r.wait(for: "reelProgress", timeout: 30) != nil, "\(r.rawLines) \(r.stderr)")
        #expect(r.exitStatus(timeout: 1) == nil, "it ended before the signal: \(r.stderr)")
        let sent = ProcessInfo.processInfo.systemUptime
        r.kill(SIGTERM)
        #expect(r.exitStatus(timeout: 5) == 143, "\(r.stderr)")
        print("reel: exit \(Int((ProcessInfo.processInfo.systemUptime - sent) * 1000)) ms after SIGTERM, its syncs held")
        #expect(r.said("stopped by SIGTERM; no film written"), "\(r.stderr)")
        #expect(Self.names(out.path).isEmpty, "left: \(Self.names(out.path))")
    }

    @Test("a film made inside its folder of takes is no take: the next film leaves it out and names it, and a killed reel leaves nothing a booth recovers as a take")
    func filmInItsFolder() throws {
        let folder = try testFolder("reel-inside")
        let takes = try Self.takes(folder)
        let film = takes + "/film.mp4"
        let first = try RecorderProcess(["reel", takes, "--output", film, "--size", "320x240", "--json"])
        #expect(first.exitStatus(timeout: 60) == 0, "\(first.stderr)")
        let again = try RecorderProcess(["reel", takes, "--output", folder.appendingPathComponent("again.mp4").path, "--size", "320x240", "--json"])
        #expect(again.exitStatus(timeout: 60) == 0, "\(again.stderr)")
        #expect(again.stderr.contains("left out \(film): it is a film made by reel"), "\(again.stderr)")
        guard case let .reelFinished(_, _, count)? = again.events.last else { Issue.record("no reelFinished: \(again.rawLines)"); return }
        #expect(count == 1)

        // Killed mid-film: what it leaves is in a folder of its own, which a booth's recovery never opens.
        try FileManager.default.removeItem(atPath: film)
        try Self.take(takes + "/b.mp4", frames: 90)
        let killed = try RecorderProcess(["reel", takes, "--output", takes + "/second.mp4", "--json"])
        try #require(killed.wait(for: "reelProgress", count: 2, timeout: 60) != nil, "\(killed.rawLines) \(killed.stderr)")
        killed.kill(SIGKILL)
        _ = killed.exitStatus(timeout: 10)
        let left = Self.names(takes).filter { $0.hasPrefix(".") }
        #expect(left.count == 1 && left[0].hasPrefix(".kiosk-reel-"), "\(left)")
        let booth = try RecorderProcess(["--camera", "test", "--windowed", "800x480", "--output-dir", takes, "--microphone", "none"])
        #expect(booth.wait(for: "ready") != nil, "\(booth.stderr)")
        booth.command("quit")
        #expect(booth.exitStatus() == 0)
        #expect(!booth.rawLines.contains { $0.contains("recordingRecovered") }, "\(booth.rawLines)")
        #expect(Self.names(takes).filter { !$0.hasPrefix(".") } == ["a.mp4", "b.mp4"], "\(Self.names(takes))")
    }
}
